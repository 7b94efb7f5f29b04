package storage

import (
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Mode separates live data from test data; every customer row carries one.
type Mode string

// The two modes.
const (
	Live Mode = "live"
	Test Mode = "test"
)

// Timestamp is a UTC instant with millisecond precision, stored as integer
// milliseconds and written in JSON as ISO 8601 ("2026-10-01T12:00:00.000Z").
type Timestamp int64

// TimeLayout is how timestamps are written; it sorts as it reads.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// At converts a time to a Timestamp.
func At(t time.Time) Timestamp { return Timestamp(t.UnixMilli()) }

// Time converts back to a time.Time in UTC.
func (t Timestamp) Time() time.Time { return time.UnixMilli(int64(t)).UTC() }

func (t Timestamp) String() string { return t.Time().Format(TimeLayout) }

// MarshalText writes the ISO 8601 form, which encoding/json quotes. (A
// MarshalJSON method would have its output re-validated by encoding/json,
// which showed in profiles of list responses.)
func (t Timestamp) MarshalText() ([]byte, error) {
	return t.Time().AppendFormat(make([]byte, 0, len(TimeLayout)), TimeLayout), nil
}

// UnmarshalJSON reads the ISO 8601 form.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	v, err := time.Parse(time.RFC3339Nano, strings.Trim(string(b), `"`))
	if err != nil {
		return err
	}
	*t = At(v)
	return nil
}

// Scan reads an integer column.
func (t *Timestamp) Scan(src any) error {
	v, ok := src.(int64)
	if !ok {
		return fmt.Errorf("timestamp: cannot scan %T", src)
	}
	*t = Timestamp(v)
	return nil
}

// Value writes an integer column.
func (t Timestamp) Value() (driver.Value, error) { return int64(t), nil }

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

// Cursor is a position in a list: the sort key and id of the last row seen.
type Cursor struct {
	Key int64
	ID  string
}

// Page selects rows after a cursor (nil: from the start), at most Limit.
type Page struct {
	After *Cursor
	Limit int
}

// equal starts the conditions of a list with its mode and adds "col = ?"
// for each (column, value) pair whose value is not empty.
func equal(mode Mode, pairs ...string) (conds []string, args []any) {
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
