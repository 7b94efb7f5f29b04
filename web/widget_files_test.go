package web_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/files"
	"chatsvc/testenv"
	"chatsvc/testenv/webenv"
)

// filesEnv is webenv.New with its file store in dir and a limit of maxBytes.
func filesEnv(t *testing.T, dir string, maxBytes int64) *webenv.Env {
	return webenv.New(t, func(o *app.Options) {
		o.Files = files.New(files.Options{Dir: dir, MaxBytes: maxBytes, Timeout: 5 * time.Second})
	})
}

// upload sends a visitor's file to POST /widget/v1/attachments.
func upload(e *webenv.Env, token, name string, data []byte) webenv.Resp {
	e.T.Helper()
	body, ct := testenv.Multipart("file", name, data)
	return e.WidgetDo("POST", "/widget/v1/attachments", token, string(body), "Content-Type", ct)
}

// stored lists the files kept under dir (the store's bytes, not its temp files).
func stored(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if rel, _ := filepath.Rel(dir, p); err == nil && !d.IsDir() && !strings.HasPrefix(rel, "tmp") {
			out = append(out, filepath.Base(p))
		}
		return nil
	})
	return out
}

// A visitor uploads a picture, sends it with no text, and sees it in their
// messages; the file downloads as the picture it is.
func TestVisitorSendsAFile(t *testing.T) {
	e := webenv.New(t)
	tok := e.Session(true)
	pic := testenv.PNG(8, 6)
	up := upload(e, tok, "../screen shot.png", pic).OK(t, 201)
	if up["object"] != "attachment" || up["name"] != "screen shot.png" || up["content_type"] != "image/png" ||
		up["size"] != float64(len(pic)) || !strings.HasPrefix(up["id"].(string), "att_") {
		t.Fatalf("upload: %v", up)
	}
	res := fetch(e, up["url"].(string))
	if got := body(t, res); !bytes.Equal(got, pic) || res.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("download: %s, %d bytes", res.Header.Get("Content-Type"), len(got))
	}

	sent := e.WidgetDo("POST", "/widget/v1/messages", tok, map[string]any{"attachments": []string{up["id"].(string)}}).OK(t, 201)
	msg := sent["message"].(map[string]any)
	atts := msg["attachments"].([]any)
	if msg["body"] != "" || len(atts) != 1 || atts[0].(map[string]any)["name"] != "screen shot.png" || sent["reply"] != nil {
		t.Fatalf("message: %v", sent)
	}
	list := e.WidgetDo("GET", "/widget/v1/messages", tok, nil).OK(t, 200)["data"].([]any)
	shown := list[0].(map[string]any)["attachments"].([]any)[0].(map[string]any)
	if got := body(t, fetch(e, shown["url"].(string))); !bytes.Equal(got, pic) {
		t.Fatal("the sent file does not download from the visitor's list")
	}
	// The team sees it through the REST API, and an upload is sent once.
	conv := msg["conversation_id"].(string)
	if n := len(e.Test("GET", cvPath(conv, "/messages"), nil).OK(t, 200)["data"].([]any)[0].(map[string]any)["attachments"].([]any)); n != 1 {
		t.Fatalf("the team sees %d attachments", n)
	}
	e.WidgetDo("POST", "/widget/v1/messages", tok, map[string]any{"body": "again", "attachments": []string{up["id"].(string)}}).
		Fails(t, 400, "resource_missing", "attachments.0")
}

// What the widget's upload and the message naming it refuse.
func TestVisitorFileRefusals(t *testing.T) {
	dir := t.TempDir()
	e := filesEnv(t, dir, 1000)
	tok, other := e.Session(true), e.Session(true)
	up := upload(e, tok, "a.png", testenv.PNG(2, 2)).OK(t, 201)["id"].(string)

	upload(e, tok, "big.png", append(testenv.PNG(2, 2), make([]byte, 1000)...)).Fails(t, 400, "attachment_too_large", "file")
	upload(e, tok, "page.html", []byte("<html><script>alert(1)</script></html>")).Fails(t, 400, "attachment_type_unsupported", "file")
	upload(e, tok, "run.exe", []byte("MZ\x90\x00\x03\x00\x00\x00")).Fails(t, 400, "attachment_type_unsupported", "file")
	if got := stored(t, dir); len(got) != 1 {
		t.Errorf("refused files were kept: %v", got)
	}
	e.WidgetDo("POST", "/widget/v1/attachments", tok, map[string]any{"file": "x"}).Fails(t, 400, "body_invalid", "")
	b, ct := testenv.Multipart("photo", "a.png", testenv.PNG(2, 2))
	e.WidgetDo("POST", "/widget/v1/attachments", tok, string(b), "Content-Type", ct).Fails(t, 400, "parameter_unknown", "photo")
	e.WidgetDo("POST", "/widget/v1/attachments", "", string(b), "Content-Type", ct).Fails(t, 401, "visitor_token_missing", "")

	send := func(token string, body map[string]any) webenv.Resp {
		return e.WidgetDo("POST", "/widget/v1/messages", token, body)
	}
	send(other, map[string]any{"attachments": []string{up}}).Fails(t, 400, "resource_missing", "attachments.0")
	send(tok, map[string]any{"attachments": []string{up, up}}).Fails(t, 400, "parameter_invalid", "attachments.1")
	send(tok, map[string]any{"attachments": []string{"msg_1"}}).Fails(t, 400, "parameter_invalid", "attachments.0")
	send(tok, map[string]any{"attachments": []string{"att_1", "att_2", "att_3", "att_4", "att_5", "att_6"}}).
		Fails(t, 400, "parameter_invalid", "attachments")
	send(tok, map[string]any{"attachments": []string{}}).Fails(t, 400, "parameter_missing", "body")
	send(tok, map[string]any{"body": " ", "attachments": []string{}}).Fails(t, 400, "parameter_invalid", "body")
	send(tok, map[string]any{"attachments": "att_1"}).Fails(t, 400, "parameter_invalid", "attachments")
	// A refused message leaves the upload for the next try.
	send(tok, map[string]any{"body": "x", "attachments": []string{up, "att_nope"}}).Fails(t, 400, "resource_missing", "attachments.1")
	send(tok, map[string]any{"body": "Here", "attachments": []string{up}}).OK(t, 201)
}

// Uploads are rate-limited per visitor, like the widget's other writes.
func TestVisitorUploadRateLimit(t *testing.T) {
	e := webenv.New(t)
	tok := e.Session(true)
	pic := testenv.PNG(2, 2)
	for range app.VisitorUploadsPerHour {
		upload(e, tok, "a.png", pic).OK(t, 201)
	}
	r := upload(e, tok, "a.png", pic)
	r.Fails(t, 429, "rate_limited", "")
	if r.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	upload(e, e.Session(true), "a.png", pic).OK(t, 201) // another visitor is not held back
}

// Uploads never sent are removed after a day by the retention job.
func TestUnsentUploadsArePruned(t *testing.T) {
	dir := t.TempDir()
	e := filesEnv(t, dir, 1<<20)
	tok := e.Session(true)
	sent := upload(e, tok, "sent.png", testenv.PNG(3, 3)).OK(t, 201)["id"].(string)
	e.WidgetDo("POST", "/widget/v1/messages", tok, map[string]any{"body": "Look", "attachments": []string{sent}}).OK(t, 201)
	left := upload(e, tok, "left.png", testenv.PNG(4, 4)).OK(t, 201)
	e.Clock.Advance(app.UploadsKept + time.Hour)
	if err := e.Svc.RetentionStep(t.Context(), app.Retention{}); err != nil {
		t.Fatal(err)
	}
	if got := stored(t, dir); len(got) != 1 {
		t.Fatalf("files kept: %v, want only the sent one", got)
	}
	e.WidgetDo("POST", "/widget/v1/messages", tok, map[string]any{"attachments": []string{left["id"].(string)}}).
		Fails(t, 400, "resource_missing", "attachments.0")
}

// Erasing a contact deletes the files the person sent and those they
// uploaded and never sent, bytes included; the team's files stay.
func TestContactErasureDeletesVisitorFiles(t *testing.T) {
	dir := t.TempDir()
	e := filesEnv(t, dir, 1<<20)
	tok := e.Session(true)
	ctc := e.WidgetDo("POST", "/widget/v1/identify", tok, map[string]any{"email": "ada@example.com", "name": "Ada"}).OK(t, 200)["id"].(string)
	sent := upload(e, tok, "ada-passport.png", testenv.PNG(5, 5)).OK(t, 201)
	msg := e.WidgetDo("POST", "/widget/v1/messages", tok, map[string]any{"body": "My ID",
		"attachments": []string{sent["id"].(string)}}).OK(t, 201)["message"].(map[string]any)
	signed := msg["attachments"].([]any)[0].(map[string]any)["url"].(string)
	upload(e, tok, "unsent.png", testenv.PNG(6, 6)).OK(t, 201)
	conv := msg["conversation_id"].(string)
	// The team's reply carries a file of its own, made by the desk.
	_, err := e.Svc.PostAgentMessage(t.Context(), "test", conv, app.AgentMessage{Body: app.Value("Thanks"),
		AuthorID: app.Value(e.Member), Files: []app.FileInput{{Name: "form.png", Body: bytes.NewReader(testenv.PNG(7, 7))}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := stored(t, dir); len(got) != 3 {
		t.Fatalf("files before: %v", got)
	}

	e.Test("DELETE", "/v1/contacts/"+ctc, nil).OK(t, 200)
	if got := stored(t, dir); len(got) != 1 {
		t.Fatalf("files after erasure: %v, want only the team's", got)
	}
	res := fetch(e, signed)
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("the person's file downloads after erasure: %d", res.StatusCode)
	}
	msgs := e.Test("GET", cvPath(conv, "/messages"), nil).OK(t, 200)["data"].([]any)
	if n := len(msgs[0].(map[string]any)["attachments"].([]any)); n != 0 {
		t.Errorf("the visitor's message still lists %d files", n)
	}
	if n := len(msgs[1].(map[string]any)["attachments"].([]any)); n != 1 {
		t.Errorf("the team's message lists %d files, want 1", n)
	}
	if atts := e.EventData(msgs[0].(map[string]any)["id"].(string), "message.created")["attachments"].([]any); len(atts) != 0 {
		t.Errorf("the stored event still lists the person's files: %v", atts)
	}
}
