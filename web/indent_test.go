package web

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"chatsvc/chat"
)

// stdIndented is what encoding/json's own indenting writes for v.
func stdIndented(t *testing.T, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestWriteJSONLayoutIsEncodingJSONs(t *testing.T) {
	t.Parallel()
	subject := `He said "hi" \ {not: [json]}, then: <b>&</b>` + "\n\ttab é ✓"
	values := []any{
		nil, true, 42, -1.5, "", "plain", subject,
		[]any{}, map[string]any{}, []any{[]any{}, map[string]any{}},
		map[string]any{"data": []any{}, "has_more": false, "next_cursor": nil},
		map[string]any{"a": map[string]any{"b": []any{1, "x,y", map[string]any{"c:d": "}]"}}}},
		&chat.Conversation{ID: "conv_1", Subject: &subject, Metadata: map[string]string{"k": `v"\`}},
		[]*chat.Message{{ID: "msg_1", Body: `a\"b`, Sources: []chat.Source{{Title: "t", URL: "https://example.com/?a=1&b=2"}}}},
		json.RawMessage(`{"raw" : [1, 2 ,3], "s":"x y"}`),
	}
	for _, v := range values {
		want := stdIndented(t, v)
		rec := httptest.NewRecorder()
		writeJSON(rec, 200, v)
		if got := rec.Body.String(); got != want {
			t.Errorf("writeJSON(%#v):\n%s\nwant:\n%s", v, got, want)
		}
		if rec.Header().Get("Content-Length") != itoa(len(want)) {
			t.Errorf("Content-Length %s for %d bytes", rec.Header().Get("Content-Length"), len(want))
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// FuzzIndentMatchesJSONIndent checks indent against json.Indent on any
// valid JSON, as compacted by encoding/json.
func FuzzIndentMatchesJSONIndent(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,{"b":"c\"]"}],"d":{}}`, `"x\\"`, `[[],[{}],""]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var compact bytes.Buffer
		if json.Compact(&compact, []byte(s)) != nil {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := indent(nil, compact.Bytes()); string(got) != want.String() {
			t.Fatalf("indent(%q) = %q, want %q", compact.Bytes(), got, want.Bytes())
		}
	})
}

// BenchmarkWriteJSONList compares, in one run, writeJSON with
// encoding/json's own indenting on a list page of 20 conversations.
//
//	go test ./web -run '^$' -bench WriteJSONList
func BenchmarkWriteJSONList(b *testing.B) {
	subject := "Question about pricing"
	var convs []*chat.Conversation
	for i := 0; i < 20; i++ {
		convs = append(convs, &chat.Conversation{ID: "conv_0123456789abcdef", SiteID: "site_x",
			Status: "open", Subject: &subject, PageURL: "https://example.com/pricing", Metadata: map[string]string{"plan": "pro"}})
	}
	v := map[string]any{"object": "list", "data": convs, "has_more": true, "next_cursor": "abc"}
	std := func() {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		enc.Encode(v)
		httptest.NewRecorder().Write(buf.Bytes())
	}
	ours := func() { writeJSON(httptest.NewRecorder(), 200, v) }
	b.ReportAllocs()
	var tStd, tOurs time.Duration
	for b.Loop() {
		t := time.Now()
		std()
		tStd += time.Since(t)
		t = time.Now()
		ours()
		tOurs += time.Since(t)
	}
	b.ReportMetric(float64(tStd.Nanoseconds())/float64(b.N), "std_ns/op")
	b.ReportMetric(float64(tOurs.Nanoseconds())/float64(b.N), "writeJSON_ns/op")
	b.ReportMetric(float64(tStd)/float64(tOurs), "speedup")
}
