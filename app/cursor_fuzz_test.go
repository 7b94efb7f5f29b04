package app

import (
	"testing"

	"chatsvc/chat"
)

// FuzzCursor feeds arbitrary cursors to the list parameters: they are
// either refused as parameter_invalid or decode to a cursor that encodes
// back to an equivalent one.
func FuzzCursor(f *testing.F) {
	for _, seed := range []string{"", "MTcwMDAwMDAwMDAwMC50a3RfYWJj", encodeCursor(chat.Cursor{Key: -5, ID: "x.y"}), "!!", "Lg", "MTIz"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pg, err := ListParams{Cursor: s}.page()
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Code != CodeParameterInvalid || e.Param != "cursor" {
				t.Fatalf("cursor %q: %v", s, err)
			}
			return
		}
		if s == "" {
			if pg.After != nil {
				t.Fatal("no cursor must mean the first page")
			}
			return
		}
		again, err := decodeCursor(encodeCursor(*pg.After))
		if err != nil || *again != *pg.After {
			t.Fatalf("cursor %q: %+v does not survive a round trip (%+v, %v)", s, *pg.After, again, err)
		}
	})
}
