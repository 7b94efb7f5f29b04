package chat

import (
	"encoding/json"
	"testing"
	"time"
)

func TestTimestampJSON(t *testing.T) {
	t.Parallel()
	at := At(time.Date(2026, 10, 1, 12, 3, 4, 5_000_000, time.UTC))
	v := struct {
		At    Timestamp  `json:"at"`
		Set   *Timestamp `json:"set"`
		Unset *Timestamp `json:"unset"`
	}{at, &at, nil}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"at":"2026-10-01T12:03:04.005Z","set":"2026-10-01T12:03:04.005Z","unset":null}`
	if string(b) != want {
		t.Fatalf("got %s, want %s", b, want)
	}
	var back struct {
		At Timestamp `json:"at"`
	}
	if err := json.Unmarshal(b, &back); err != nil || back.At != at {
		t.Fatalf("round trip: %v, %v", back.At, err)
	}
}
