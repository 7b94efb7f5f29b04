package app

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"chatsvc/chat"
	"chatsvc/files"
	"chatsvc/storage"
)

// CodeAttachmentUnsupported refuses a visitor's file of a type the service
// would not serve as it is (see files.Servable).
const CodeAttachmentUnsupported = "attachment_type_unsupported"

// UploadsKept is how long a visitor's upload waits for the message that
// sends it; the retention job removes it after that.
const UploadsKept = 24 * time.Hour

// FileInput is a file that arrives in the request itself (a multipart
// upload), rather than by URL.
type FileInput struct {
	Name string // as the browser gave it; cleaned before it is kept
	Body io.Reader
}

// Upload is a file a visitor uploaded through the widget, ready to be named
// by id in their next message.
type Upload struct {
	ID          string         `json:"id"`
	Object      string         `json:"object"`
	Name        string         `json:"name"`
	Size        int64          `json:"size"`
	ContentType string         `json:"content_type"`
	URL         string         `json:"url"` // signed, valid for AttachmentURLTTL
	CreatedAt   chat.Timestamp `json:"created_at"`
}

// AttachmentMaxBytes is the largest file the service takes, or 0 when it
// takes none.
func (s *Service) AttachmentMaxBytes() int64 {
	if s.att.store == nil {
		return 0
	}
	return s.att.store.MaxBytes()
}

// noFiles refuses a file when the server keeps none.
func (s *Service) noFiles(param string) error {
	if s.att.store != nil {
		return nil
	}
	return &Error{Kind: Invalid, Code: CodeFeatureUnavailable, Param: param,
		Message: "This server does not take files; send the message without them."}
}

// storeFiles keeps each file of in in the store, under its limit, with its
// type sniffed from its bytes. The first failure ends it, explained by
// refuse, and removes the files already written.
func (s *Service) storeFiles(ctx context.Context, in []FileInput, refuse func(i int, f FileInput, err error) error) ([]chat.StoredFile, error) {
	out := make([]chat.StoredFile, 0, len(in))
	for i, f := range in {
		b, err := s.att.store.Save(f.Body, f.Name)
		if err != nil {
			return nil, errors.Join(refuse(i, f, err), s.removeUnheldFiles(ctx, hashesOf(out)))
		}
		out = append(out, chat.StoredFile{ID: NewID(PrefixAttachment), Hash: b.Hash, Name: b.Name, Size: b.Size,
			ContentType: b.ContentType})
	}
	return out, nil
}

// fileRefusal explains a file of a request that could not be kept; param
// names the list ("files") or, with one file, the file.
func (s *Service) fileRefusal(param string, one bool) func(int, FileInput, error) error {
	return func(i int, f FileInput, err error) error {
		p := param
		if !one {
			p += "." + strconv.Itoa(i)
		}
		if errors.Is(err, files.ErrTooLarge) {
			return &Error{Kind: Invalid, Code: CodeAttachmentTooLarge, Param: p,
				Message: "The file " + files.CleanName(f.Name) + " is larger than the limit of " +
					strconv.FormatInt(s.att.store.MaxBytes(), 10) + " bytes."}
		}
		return err
	}
}

// UploadVisitorFile keeps a visitor's file for their next message: within
// the same size limit as any attachment, of a type the service serves as it
// is (images, PDF, plain text, audio, video, zip), sniffed from the bytes.
// Uploads count against the visitor's own rate limit.
func (s *Service) UploadVisitorFile(ctx context.Context, v *Visit, in FileInput) (*Upload, error) {
	if err := s.noFiles("file"); err != nil {
		return nil, err
	}
	if err := s.visitorAllowed(s.visitors.uploads, v, "Too many files; please wait a while before sending another."); err != nil {
		return nil, err
	}
	key, err := s.signingKey(ctx)
	if err != nil {
		return nil, err
	}
	saved, err := s.storeFiles(ctx, []FileInput{in}, s.fileRefusal("file", true))
	if err != nil {
		return nil, err
	}
	f := saved[0]
	if !files.Servable(f.ContentType) {
		kind, _, _ := strings.Cut(f.ContentType, ";")
		return nil, errors.Join(&Error{Kind: Invalid, Code: CodeAttachmentUnsupported, Param: "file",
			Message: "Files of type " + kind + " cannot be sent here; send an image, a PDF, a text file, audio, video or a zip archive."},
			s.removeUnheldFiles(ctx, []string{f.Hash}))
	}
	u := &storage.Upload{StoredFile: f, Mode: v.Mode, VisitorID: v.Visitor.ID, CreatedAt: s.stamp()}
	if err := s.write(ctx, func(q *storage.Q) error { return q.InsertUpload(ctx, u) }); err != nil {
		return nil, err
	}
	shown := s.signFiles(key, []chat.StoredFile{f})[0]
	return &Upload{ID: f.ID, Object: "attachment", Name: f.Name, Size: f.Size, ContentType: f.ContentType,
		URL: shown.URL, CreatedAt: u.CreatedAt}, nil
}

// checkUploadRefs refuses a list of upload ids that cannot be sent.
func checkUploadRefs(ids []string) error {
	if n := len(ids); n > MaxAttachments {
		return invalid("attachments", "A message can carry at most %d attachments (got %d).", MaxAttachments, n)
	}
	for i, id := range ids {
		p := "attachments." + strconv.Itoa(i)
		if !strings.HasPrefix(id, PrefixAttachment) {
			return invalid(p, "%s must be the id of an uploaded file (att_…), got '%s'.", p, id)
		}
		for _, prev := range ids[:i] {
			if prev == id {
				return invalid(p, "The file %s is named twice.", id)
			}
		}
	}
	return nil
}

// takeUploads moves the visitor's uploads named by ids out of the waiting
// list, for the message being written to hold.
func takeUploads(ctx context.Context, q *storage.Q, v *Visit, ids []string) ([]chat.StoredFile, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var at int
	out, err := q.TakeUploads(ctx, v.Mode, v.Visitor.ID, ids, &at)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, noSuchRef("attachments."+strconv.Itoa(at), "uploaded file", ids[at])
	}
	return out, err
}

// pruneUploads removes the uploads never sent within UploadsKept, and their
// bytes when nothing else holds them.
func (s *Service) pruneUploads(ctx context.Context, now time.Time) (int, error) {
	hashes, err := writeResult(ctx, s, func(q *storage.Q) ([]string, error) {
		return q.PruneUploads(ctx, chat.At(now.Add(-UploadsKept)))
	})
	if err != nil {
		return 0, err
	}
	return len(hashes), s.removeUnheldFiles(ctx, hashes)
}
