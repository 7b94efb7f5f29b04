package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/storage"
	"chatsvc/web"
)

// FuzzRequestBodies sends arbitrary bodies to the endpoints that decode JSON:
// the answer must always be a well-formed response, never a 500.
func FuzzRequestBodies(f *testing.F) {
	for _, seed := range []string{
		`{"subject":"a","contact":{"email":"a@example.com"}}`,
		`{"subject":"a","contact_id":"ctc_x","tags":["a","b"],"metadata":{"k":"v","d":null}}`,
		`{"email":"x@example.com","attributes":{"plan":"pro","n":1,"o":{"a":[1]}}}`,
		`{"body":"hi","author_id":"mem_x","attachments":[{"url":"https://e.com/a.pdf","name":"a"}]}`,
		`[]`, `null`, `{"subject":5}`, `{"metadata":{"k":5}}`, "{\"subject\":\"\xff\"}", `{"a":`, ``,
	} {
		f.Add(seed)
	}
	db, err := storage.Open(context.Background(), f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	svc := app.New(db, app.Options{})
	key, _, err := svc.CreateKey(context.Background(), chat.Test, "fuzz")
	if err != nil {
		f.Fatal(err)
	}
	srv := httptest.NewServer(web.Handler(svc))
	f.Cleanup(srv.Close)
	paths := []string{"/v1/tickets", "/v1/contacts", "/v1/conversations/conv_x/messages", "/v1/conversations/conv_x/handoff"}
	f.Fuzz(func(t *testing.T, body string) {
		for _, p := range paths {
			req, _ := http.NewRequest("POST", srv.URL+p, strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+key)
			res, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode >= 500 || res.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("POST %s %q: status %d, content type %q", p, body, res.StatusCode, res.Header.Get("Content-Type"))
			}
		}
	})
}
