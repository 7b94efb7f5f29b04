package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"chatsvc/chat"
	"chatsvc/files"
	"chatsvc/storage"
)

// AttachmentURLTTL is how long a signed download URL works after the
// response that carries it was made: one hour, as the API promises.
const AttachmentURLTTL = time.Hour

// Error codes of attachments and their downloads.
const (
	CodeAttachmentTooLarge    = "attachment_too_large"
	CodeAttachmentUnavailable = "attachment_unavailable"
	CodeSignatureInvalid      = "signature_invalid"
	CodeURLExpired            = "url_expired"
)

// settingFileKey names the secret that signs download URLs in the settings
// table. It is made on first use and kept, so URLs survive restarts.
const settingFileKey = "files.signing_key"

// attachments is what the service needs to take and hand out files.
type attachments struct {
	store     *files.Store // nil: attachments are refused
	publicURL string
	mu        sync.Mutex
	key       []byte // cached signing key
}

// check refuses an attachment input that cannot be fetched.
func (a *attachments) check(i int, in AttachmentInput) error {
	p := "attachments." + strconv.Itoa(i)
	if !in.URL.has() || in.URL.V == "" {
		return missing(p + ".url")
	}
	u, err := url.Parse(in.URL.V)
	https := err == nil && u.Scheme == "https" && u.Host != ""
	plain := err == nil && u.Scheme == "http" && u.Host != "" && a.store != nil && a.store.AllowsHTTP()
	if !https && !plain {
		return invalid(p+".url", "Attachment URLs must be public HTTPS URLs (got '%s').", in.URL.V)
	}
	if in.Name.Set {
		if strings.TrimSpace(in.Name.V) == "" {
			return invalid(p+".name", "%s.name must not be empty.", p)
		}
		if n := utf8.RuneCountInString(in.Name.V); n > files.MaxName {
			return invalid(p+".name", "%s.name can be at most %d characters long (got %d).", p, files.MaxName, n)
		}
	}
	return nil
}

// fetchAttachments downloads every attachment at once, before any write, so
// a failure leaves nothing behind but unreferenced bytes. The first failure
// in request order is reported.
func (s *Service) fetchAttachments(ctx context.Context, in []AttachmentInput) ([]chat.StoredFile, error) {
	out := make([]chat.StoredFile, len(in))
	errs := make([]error, len(in))
	var wg sync.WaitGroup
	for i, a := range in {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := s.att.store.Fetch(ctx, a.URL.V)
			if err != nil {
				errs[i] = s.fetchErr(i, a.URL.V, err)
				return
			}
			name := b.Name
			if a.Name.has() {
				name = files.CleanName(a.Name.V)
			}
			out[i] = chat.StoredFile{ID: NewID(PrefixAttachment), Hash: b.Hash, Name: name, Size: b.Size,
				ContentType: b.ContentType}
		}()
	}
	wg.Wait()
	return out, firstErr(errs)
}

func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// fetchErr explains a failed download to the caller; local failures stay internal.
func (s *Service) fetchErr(i int, u string, err error) error {
	p := "attachments." + strconv.Itoa(i) + ".url"
	var fe *files.FetchError
	switch {
	case errors.Is(err, files.ErrTooLarge):
		return &Error{Kind: Invalid, Code: CodeAttachmentTooLarge, Param: p,
			Message: "The file at " + u + " is larger than the limit of " + strconv.FormatInt(s.att.store.MaxBytes(), 10) + " bytes."}
	case errors.Is(err, files.ErrNotPublic):
		return invalid(p, "Attachment URLs must be public: %s leads to an address that is not.", u)
	case errors.As(err, &fe):
		return &Error{Kind: Invalid, Code: CodeAttachmentUnavailable, Param: p,
			Message: "The file at " + u + " could not be fetched: " + fe.Reason + "."}
	}
	return err
}

// signingKey returns the key that signs download URLs, making it on first use.
// The lock is not held while the database is used: a write transaction
// may be waiting on cachedKey.
func (s *Service) signingKey(ctx context.Context) ([]byte, error) {
	if key := s.cachedKey(); key != nil {
		return key, nil
	}
	v, err := s.db.Read().Setting(ctx, settingFileKey)
	if isNotFound(err) {
		fresh := RandomToken(43) // 256 bits
		v, err = writeResult(ctx, s, func(q *storage.Q) (string, error) {
			return q.EnsureSetting(ctx, settingFileKey, fresh)
		})
	}
	if err != nil {
		return nil, err
	}
	// Concurrent callers all read the one stored value.
	s.att.mu.Lock()
	defer s.att.mu.Unlock()
	s.att.key = []byte(v)
	return s.att.key, nil
}

// cachedKey is the signing key once signingKey has loaded it.
func (s *Service) cachedKey() []byte {
	s.att.mu.Lock()
	defer s.att.mu.Unlock()
	return s.att.key
}

func fileSignature(key []byte, id, name string, expires int64) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "\n" + name + "\n" + strconv.FormatInt(expires, 10)))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// sign fills m.Attachments from its stored files, with URLs valid for
// AttachmentURLTTL from now.
func (s *Service) sign(key []byte, m *chat.Message) {
	m.Attachments = s.signFiles(key, m.Files)
}

// signFiles shows stored files as attachments with URLs valid for
// AttachmentURLTTL from now.
func (s *Service) signFiles(key []byte, files []chat.StoredFile) []chat.Attachment {
	expires := s.now().Add(AttachmentURLTTL).Unix()
	out := make([]chat.Attachment, len(files))
	for i, f := range files {
		u := strings.TrimRight(s.att.publicURL, "/") + "/files/" + f.ID + "/" + url.PathEscape(f.Name) +
			"?expires=" + strconv.FormatInt(expires, 10) + "&signature=" + fileSignature(key, f.ID, f.Name, expires)
		out[i] = chat.Attachment{URL: u, Name: f.Name, Size: f.Size}
	}
	return out
}

// present signs the attachments of messages about to be shown.
func (s *Service) present(ctx context.Context, msgs ...*chat.Message) error {
	for _, m := range msgs {
		if len(m.Files) == 0 {
			continue
		}
		key, err := s.signingKey(ctx)
		if err != nil {
			return err
		}
		s.sign(key, m)
	}
	return nil
}

// Download is a stored file ready to be served.
type Download struct {
	File        *os.File
	Name        string // the original name, for Content-Disposition
	ContentType string // a type safe to serve (see files.SafeType)
	Size        int64
	Expires     time.Time
}

// OpenAttachment checks a signed download URL's parts and opens the file.
// A URL that was altered is refused with signature_invalid, one past its
// expiry with url_expired.
func (s *Service) OpenAttachment(ctx context.Context, id, name, expires, signature string) (*Download, error) {
	bad := &Error{Kind: Forbidden, Code: CodeSignatureInvalid, Message: "This download URL is not valid."}
	exp, err := strconv.ParseInt(expires, 10, 64)
	if err != nil || signature == "" {
		return nil, bad
	}
	key, err := s.db.Read().Setting(ctx, settingFileKey)
	if isNotFound(err) {
		return nil, bad
	} else if err != nil {
		return nil, err
	}
	if !hmac.Equal([]byte(signature), []byte(fileSignature([]byte(key), id, name, exp))) {
		return nil, bad
	}
	if s.now().Unix() > exp {
		return nil, &Error{Kind: Forbidden, Code: CodeURLExpired,
			Message: "This download URL has expired; fetch the message again for a fresh one."}
	}
	f, err := s.db.Read().Attachment(ctx, id)
	if err != nil {
		// Signed but gone (the conversation was deleted since).
		return nil, found(err, &Error{Kind: NotFound, Code: CodeResourceMissing, Message: "This file no longer exists."})
	}
	if s.att.store == nil {
		return nil, errors.New("attachments: no file store configured")
	}
	fh, err := s.att.store.Open(f.Hash)
	if err != nil {
		return nil, err
	}
	return &Download{File: fh, Name: f.Name, ContentType: files.SafeType(f.ContentType), Size: f.Size,
		Expires: time.Unix(exp, 0).UTC()}, nil
}

// DeliveryPayload is the body of an event delivered now: the event, with a
// message's attachment URLs signed afresh, since those stored with the
// event expire an hour after it (and an erased name's, at once).
func (s *Service) DeliveryPayload(ctx context.Context, ev *chat.Event) ([]byte, error) {
	data, err := s.eventObject(ctx, ev)
	if err != nil {
		return nil, err
	}
	now := *ev
	now.Data = data
	return EventPayload(&now)
}

// eventObject returns an event's data.object for delivery now.
func (s *Service) eventObject(ctx context.Context, ev *chat.Event) (json.RawMessage, error) {
	var shown struct{ Attachments []json.RawMessage }
	if ev.Type != chat.EventMessageCreated || json.Unmarshal(ev.Data, &shown) != nil || len(shown.Attachments) == 0 {
		return ev.Data, nil // nothing signed: no read
	}
	m, err := s.db.Read().Message(ctx, ev.Mode, ev.ObjectID)
	if isNotFound(err) || (err == nil && len(m.Files) == 0) {
		return ev.Data, nil
	} else if err != nil {
		return nil, err
	}
	if err := s.present(ctx, m); err != nil {
		return nil, err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(ev.Data, &obj); err != nil {
		return nil, err
	}
	if obj["attachments"], err = json.Marshal(m.Attachments); err != nil {
		return nil, err
	}
	return json.Marshal(obj)
}

// IsPicture tells whether a stored file of content type ct is a picture the
// service serves as one, which a page may show inline.
func IsPicture(ct string) bool { return strings.HasPrefix(ct, "image/") && files.Servable(ct) }
