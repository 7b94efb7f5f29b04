package storage

import (
	"context"
	"encoding/json"

	"chatsvc/chat"
)

// Queries that erase a contact's personal data from what it left behind.
// Which strings count as personal data is decided by package app.

// ConversationsOfContact lists every conversation linked to a contact.
func (q *Q) ConversationsOfContact(ctx context.Context, mode chat.Mode, contactID string) ([]*chat.Conversation, error) {
	rows, err := q.query(ctx, `SELECT `+conversationCols+` FROM conversations WHERE contact_id = ? AND mode = ?
		ORDER BY created_at, id`, contactID, mode)
	return collect(rows, err, scanConversation)
}

// ScrubConversation writes c's subject, metadata and page URL, and unlinks
// it from its contact and from the visitor's browser, so the widget no
// longer shows it.
func (q *Q) ScrubConversation(ctx context.Context, c *chat.Conversation) error {
	q.changed(&c.ID, c.VisitorID)
	var comment *string
	if c.Rating != nil {
		comment = c.Rating.Comment
	}
	res, err := q.exec(ctx, `UPDATE conversations SET subject = ?, metadata = ?, page_url = ?, rating_comment = ?,
		contact_id = NULL, visitor_id = NULL WHERE id = ? AND mode = ?`, c.Subject, toJSON(c.Metadata), c.PageURL, comment, c.ID, c.Mode)
	return affected(res, err)
}

// VisitorsOfContact lists the visitors identified as a contact.
func (q *Q) VisitorsOfContact(ctx context.Context, mode chat.Mode, contactID string) ([]*chat.Visitor, error) {
	rows, err := q.query(ctx, `SELECT `+visitorCols+` FROM visitors WHERE contact_id = ? AND mode = ?`, contactID, mode)
	return collect(rows, err, scanVisitor)
}

// SetVisitorPageURL rewrites the page a visitor was last seen on.
func (q *Q) SetVisitorPageURL(ctx context.Context, mode chat.Mode, id, pageURL string) error {
	_, err := q.exec(ctx, `UPDATE visitors SET page_url = ? WHERE id = ? AND mode = ?`, pageURL, id, mode)
	return err
}

// AllMessages lists every message of a conversation, oldest first.
func (q *Q) AllMessages(ctx context.Context, conversationID string) ([]*chat.Message, error) {
	rows, err := q.query(ctx, `SELECT `+messageCols+` FROM messages WHERE conversation_id = ? ORDER BY created_at, id`,
		conversationID)
	return collect(rows, err, scanMessage)
}

// ScrubMessage writes m's author, body and stored attachments.
func (q *Q) ScrubMessage(ctx context.Context, m *chat.Message) error {
	q.changed(&m.ConversationID)
	files := m.Files
	if files == nil {
		files = []chat.StoredFile{}
	}
	res, err := q.exec(ctx, `UPDATE messages SET author_id = ?, author_name = ?, body = ?, attachments = ? WHERE id = ?`,
		m.Author.ID, m.Author.Name, m.Body, toJSON(files), m.ID)
	return affected(res, err)
}

// SetNoteBody rewrites an internal note.
func (q *Q) SetNoteBody(ctx context.Context, id, body string) error {
	res, err := q.exec(ctx, `UPDATE notes SET body = ? WHERE id = ?`, body, id)
	return affected(res, err)
}

// SetEventData rewrites the stored object of an event.
func (q *Q) SetEventData(ctx context.Context, seq int64, data json.RawMessage) error {
	res, err := q.exec(ctx, `UPDATE events SET data = ? WHERE seq = ?`, string(data), seq)
	return affected(res, err)
}

// TeamMails lists the e-mails of mode to the team (to no contact), sent or
// not: an alert may quote a person who is then erased.
func (q *Q) TeamMails(ctx context.Context, mode chat.Mode) ([]*Mail, error) {
	rows, err := q.query(ctx, `SELECT `+mailRead+` FROM outbox WHERE contact_id IS NULL AND mode = ?`, mode)
	return collect(rows, err, scanMail)
}

// QueuedPushes lists the id and payload of every push not yet delivered.
func (q *Q) QueuedPushes(ctx context.Context) (map[string]string, error) {
	rows, err := q.query(ctx, `SELECT id, payload FROM pushes`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, payload string
		if err := rows.Scan(&id, &payload); err != nil {
			return nil, err
		}
		out[id] = payload
	}
	return out, rows.Err()
}

// SetPushPayload rewrites what a queued push will say.
func (q *Q) SetPushPayload(ctx context.Context, id, payload string) error {
	_, err := q.exec(ctx, `UPDATE pushes SET payload = ? WHERE id = ?`, payload, id)
	return err
}

// SetMailData rewrites what an unsent e-mail will say.
func (q *Q) SetMailData(ctx context.Context, id string, data json.RawMessage) error {
	res, err := q.exec(ctx, `UPDATE outbox SET data = ? WHERE id = ?`, string(data), id)
	return affected(res, err)
}

// EraseMailsOf drops the e-mails to a contact that were not sent, and keeps
// of those that were only the fact that they were sent: no address, name
// or content.
func (q *Q) EraseMailsOf(ctx context.Context, contactID string) error {
	if _, err := q.exec(ctx, `DELETE FROM outbox WHERE contact_id = ? AND status <> ?`, contactID, chat.MailSent); err != nil {
		return err
	}
	_, err := q.exec(ctx, `UPDATE outbox SET to_email = '', to_name = NULL, data = '{}', ticket_event = NULL, last_error = NULL, contact_id = NULL
		WHERE contact_id = ?`, contactID)
	return err
}

// TextColumns lists, as "table.column", every column of the schema that can
// hold text: declared TEXT or BLOB, or with no type (full-text index
// columns), in every table, full-text indexes and their shadow tables
// included.
func (q *Q) TextColumns(ctx context.Context) ([]string, error) {
	rows, err := q.query(ctx, `SELECT m.name || '.' || p.name FROM sqlite_schema m, pragma_table_info(m.name) p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
		AND (upper(p.type) IN ('TEXT', 'BLOB', '') OR upper(p.type) LIKE '%CHAR%' OR upper(p.type) LIKE '%CLOB%')
		ORDER BY 1`)
	return collect(rows, err, func(s interface{ Scan(...any) error }) (string, error) {
		var c string
		return c, s.Scan(&c)
	})
}
