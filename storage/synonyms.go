package storage

import (
	"context"
	"strings"

	"chatsvc/chat"
)

const synonymCols = `id, mode, words, created_at, updated_at`

func scanSynonym(s interface{ Scan(...any) error }) (*chat.Synonym, error) {
	g := &chat.Synonym{}
	var words string
	err := s.Scan(&g.ID, &g.Mode, &words, &g.CreatedAt, &g.UpdatedAt)
	g.Words = strings.Split(words, "\n")
	return g, notFound(err)
}

// InsertSynonym stores a new group of synonyms.
func (q *Q) InsertSynonym(ctx context.Context, g *chat.Synonym) error {
	_, err := q.exec(ctx, `INSERT INTO synonyms (`+synonymCols+`) VALUES (?,?,?,?,?)`,
		g.ID, g.Mode, strings.Join(g.Words, "\n"), g.CreatedAt, g.UpdatedAt)
	return err
}

// UpdateSynonym writes a group's words.
func (q *Q) UpdateSynonym(ctx context.Context, g *chat.Synonym) error {
	res, err := q.exec(ctx, `UPDATE synonyms SET words = ?, updated_at = ? WHERE id = ? AND mode = ?`,
		strings.Join(g.Words, "\n"), g.UpdatedAt, g.ID, g.Mode)
	return affected(res, err)
}

// DeleteSynonym removes a group.
func (q *Q) DeleteSynonym(ctx context.Context, mode chat.Mode, id string) error {
	res, err := q.exec(ctx, `DELETE FROM synonyms WHERE id = ? AND mode = ?`, id, mode)
	return affected(res, err)
}

// Synonym reads one group of a mode.
func (q *Q) Synonym(ctx context.Context, mode chat.Mode, id string) (*chat.Synonym, error) {
	return scanSynonym(q.row(ctx, `SELECT `+synonymCols+` FROM synonyms WHERE id = ? AND mode = ?`, id, mode))
}

// Synonyms lists a mode's groups, newest first.
func (q *Q) Synonyms(ctx context.Context, mode chat.Mode, p Page) ([]*chat.Synonym, error) {
	where, tail, args := keyset("created_at", true, p, []string{"mode = ?"}, []any{mode})
	rows, err := q.query(ctx, `SELECT `+synonymCols+` FROM synonyms`+where+tail, args...)
	return collect(rows, err, scanSynonym)
}

// AllSynonyms returns every group of a mode's words, for the assistant.
func (q *Q) AllSynonyms(ctx context.Context, mode chat.Mode) ([][]string, error) {
	rows, err := q.query(ctx, `SELECT words FROM synonyms WHERE mode = ? ORDER BY created_at, id`, mode)
	return collect(rows, err, func(s interface{ Scan(...any) error }) ([]string, error) {
		var words string
		err := s.Scan(&words)
		return strings.Split(words, "\n"), err
	})
}

// CountSynonyms counts a mode's groups.
func (q *Q) CountSynonyms(ctx context.Context, mode chat.Mode) (int, error) {
	var n int
	err := q.row(ctx, `SELECT count(*) FROM synonyms WHERE mode = ?`, mode).Scan(&n)
	return n, err
}
