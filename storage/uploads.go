package storage

import (
	"context"
	"strings"

	"chatsvc/chat"
)

// Upload is a file a visitor uploaded through the widget and has not sent yet.
type Upload struct {
	chat.StoredFile
	Mode      chat.Mode
	VisitorID string
	CreatedAt chat.Timestamp
}

// InsertUpload records a visitor's upload.
func (q *Q) InsertUpload(ctx context.Context, u *Upload) error {
	_, err := q.exec(ctx, `INSERT INTO uploads (id, mode, visitor_id, hash, name, size, content_type, created_at)
		VALUES (?,?,?,?,?,?,?,?)`, u.ID, u.Mode, u.VisitorID, u.Hash, u.Name, u.Size, u.ContentType, u.CreatedAt)
	return err
}

// TakeUploads removes the visitor's uploads with ids and returns them in the
// order of ids, for a message to hold. An id that is not the visitor's
// unsent upload is ErrNotFound, with its position in *missing.
func (q *Q) TakeUploads(ctx context.Context, mode chat.Mode, visitorID string, ids []string, missing *int) ([]chat.StoredFile, error) {
	out := make([]chat.StoredFile, 0, len(ids))
	for i, id := range ids {
		var f chat.StoredFile
		err := q.row(ctx, `DELETE FROM uploads WHERE id = ? AND mode = ? AND visitor_id = ?
			RETURNING id, hash, name, size, content_type`, id, mode, visitorID).
			Scan(&f.ID, &f.Hash, &f.Name, &f.Size, &f.ContentType)
		if err != nil {
			*missing = i
			return nil, notFound(err)
		}
		out = append(out, f)
	}
	return out, nil
}

// DeleteUploadsOf removes the unsent uploads of visitors and returns the
// hashes they held, for the caller to remove once nothing holds them.
func (q *Q) DeleteUploadsOf(ctx context.Context, mode chat.Mode, visitorIDs []string) ([]string, error) {
	if len(visitorIDs) == 0 {
		return nil, nil
	}
	args := []any{mode}
	for _, id := range visitorIDs {
		args = append(args, id)
	}
	marks := strings.TrimSuffix(strings.Repeat("?,", len(visitorIDs)), ",")
	rows, err := q.query(ctx, `DELETE FROM uploads WHERE mode = ? AND visitor_id IN (`+marks+`) RETURNING hash`, args...)
	return collect(rows, err, scanHash)
}

// PruneUploads removes the uploads never sent and made before cutoff, and
// returns the hashes they held.
func (q *Q) PruneUploads(ctx context.Context, cutoff chat.Timestamp) ([]string, error) {
	rows, err := q.query(ctx, `DELETE FROM uploads WHERE created_at < ? RETURNING hash`, cutoff)
	return collect(rows, err, scanHash)
}

// DropMessageFiles removes the attachment rows of a message and returns the
// hashes they held; the message's own list is rewritten by ScrubMessage.
func (q *Q) DropMessageFiles(ctx context.Context, messageID string) ([]string, error) {
	rows, err := q.query(ctx, `DELETE FROM attachments WHERE message_id = ? RETURNING hash`, messageID)
	return collect(rows, err, scanHash)
}

func scanHash(s interface{ Scan(...any) error }) (string, error) {
	var h string
	return h, s.Scan(&h)
}
