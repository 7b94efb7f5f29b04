package chat

import (
	"database/sql/driver"
	"fmt"
	"strings"
	"time"
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
