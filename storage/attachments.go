package storage

import (
	"context"

	"chatsvc/chat"
)

// InsertAttachments records the files of message m.
func (q *Q) InsertAttachments(ctx context.Context, m *chat.Message) error {
	for _, f := range m.Files {
		if _, err := q.exec(ctx, `INSERT INTO attachments (id, mode, message_id, hash, name, size, content_type, created_at)
			VALUES (?,?,?,?,?,?,?,?)`, f.ID, m.Mode, m.ID, f.Hash, f.Name, f.Size, f.ContentType, m.CreatedAt); err != nil {
			return err
		}
	}
	return nil
}

// Attachment returns the stored file with id (sent, or uploaded and not
// sent yet), or ErrNotFound.
func (q *Q) Attachment(ctx context.Context, id string) (*chat.StoredFile, error) {
	f := &chat.StoredFile{}
	err := q.row(ctx, `SELECT id, hash, name, size, content_type FROM attachments WHERE id = ?
		UNION ALL SELECT id, hash, name, size, content_type FROM ticket_comment_files WHERE id = ?
		UNION ALL SELECT id, hash, name, size, content_type FROM uploads WHERE id = ?`, id, id, id).
		Scan(&f.ID, &f.Hash, &f.Name, &f.Size, &f.ContentType)
	return f, notFound(err)
}

// RenameAttachment changes the name a file is shown and downloaded under.
func (q *Q) RenameAttachment(ctx context.Context, id, name string) error {
	_, err := q.exec(ctx, `UPDATE attachments SET name = ? WHERE id = ?`, name, id)
	return err
}

// EnsureSetting stores value under key unless the key exists, and returns
// the stored value: the first writer wins, so concurrent callers agree.
func (q *Q) EnsureSetting(ctx context.Context, key, value string) (string, error) {
	if _, err := q.exec(ctx, `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`, key, value); err != nil {
		return "", err
	}
	return q.Setting(ctx, key)
}
