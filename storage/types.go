package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"chatsvc/chat"
)

// jsonCol scans a TEXT column holding JSON into the value it points to.
type jsonCol struct{ v any }

func (j jsonCol) Scan(src any) error {
	switch s := src.(type) {
	case string:
		return json.Unmarshal([]byte(s), j.v)
	case []byte:
		return json.Unmarshal(s, j.v)
	case nil:
		return nil
	}
	return fmt.Errorf("json column: cannot scan %T", src)
}

// toJSON encodes a value for a TEXT column; nil maps and slices become {} / [].
func toJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("storage: encode %T: %v", v, err)) // only plain data reaches here
	}
	return string(b)
}

// ErrConflict is returned when a write would break a uniqueness rule.
var ErrConflict = errors.New("storage: unique constraint")

// conflict turns SQLite's unique-constraint failures into ErrConflict.
func conflict(err error) error {
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		switch coded.Code() {
		case 2067, 1555: // SQLITE_CONSTRAINT_UNIQUE, SQLITE_CONSTRAINT_PRIMARYKEY
			return fmt.Errorf("%w: %v", ErrConflict, err)
		}
	}
	return err
}

// Page selects rows after a cursor (nil: from the start), at most Limit.
type Page struct {
	After *chat.Cursor
	Limit int
}

// equal starts the conditions of a list with its mode and adds "col = ?"
// for each (column, value) pair whose value is not empty.
func equal(mode chat.Mode, pairs ...string) (conds []string, args []any) {
	conds, args = []string{"mode = ?"}, []any{mode}
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			conds = append(conds, pairs[i]+" = ?")
			args = append(args, pairs[i+1])
		}
	}
	return conds, args
}

// keyset builds the ORDER BY and LIMIT of a list, with the keyset condition
// that resumes after p.After. Ties on col are broken by id.
func keyset(col string, desc bool, p Page, conds []string, args []any) (where, tail string, outArgs []any) {
	dir, op := "ASC", ">"
	if desc {
		dir, op = "DESC", "<"
	}
	if p.After != nil {
		conds = append(conds, fmt.Sprintf("(%s, id) %s (?, ?)", col, op))
		args = append(args, p.After.Key, p.After.ID)
	}
	where = ""
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	tail = fmt.Sprintf(" ORDER BY %s %s, id %s LIMIT ?", col, dir, dir)
	return where, tail, append(args, p.Limit)
}
