package web_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"chatsvc/testenv"
	"chatsvc/testenv/webenv"
)

// postFiles sends the reply box as a browser does with files chosen:
// multipart, with the session's CSRF token.
func (d *dash) postFiles(path string, fields map[string]string, files map[string][]byte) dashResp {
	d.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	w.WriteField("csrf", d.csrf)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	for name, data := range files {
		part, _ := w.CreateFormFile("files", name)
		part.Write(data)
	}
	w.Close()
	req, err := http.NewRequest("POST", d.base+path, &buf)
	if err != nil {
		d.t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	return d.send(req)
}

// An agent sends files from the reply box; pictures show as previews in
// the conversation, other files as links, and the visitor gets them too.
func TestDeskRepliesWithFiles(t *testing.T) {
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	d.signIn("agent@example.com", webenv.DashPassword)
	d.setMode("test")
	tok := e.Session(true)
	up := upload(e, tok, "broken.png", testenv.PNG(4, 4)).OK(t, 201)["id"].(string)
	conv := e.WidgetDo("POST", "/widget/v1/messages", tok, map[string]any{"body": "It broke", "attachments": []string{up}}).
		OK(t, 201)["message"].(map[string]any)["conversation_id"].(string)
	path := "/app/conversations/" + conv

	page := d.get(path).must(t, 200)
	if !strings.Contains(page, `enctype="multipart/form-data"`) || !strings.Contains(page, `id="reply-files"`) {
		t.Fatal("the reply box takes no files")
	}
	if !strings.Contains(page, `<img src="/files/att_`) || !strings.Contains(page, `alt="broken.png"`) {
		t.Fatal("the visitor's picture is not previewed")
	}

	d.postFiles(path+"/reply", map[string]string{"body": "Try these"},
		map[string][]byte{"fix.png": testenv.PNG(3, 3), "steps.txt": []byte("1. Restart\n2. Retry\n")}).must(t, http.StatusSeeOther)
	page = d.get(path).must(t, 200)
	if strings.Count(page, `<img src="/files/att_`) != 2 || !strings.Contains(page, ">steps.txt</a>") || strings.Contains(page, `alt="steps.txt"`) {
		t.Fatalf("the reply's files are not shown as expected:\n%s", page)
	}
	msgs := e.WidgetDo("GET", "/widget/v1/messages", tok, nil).OK(t, 200)["data"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	if n := len(last["attachments"].([]any)); n != 2 {
		t.Fatalf("the visitor sees %d files, want 2", n)
	}

	six := map[string][]byte{}
	for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
		six[n+".txt"] = []byte(n)
	}
	d.postFiles(path+"/reply", map[string]string{"body": "Too many"}, six).must(t, http.StatusBadRequest)
	// A form with the file input left empty sends no file.
	d.postFiles(path+"/reply", map[string]string{"body": "Just text"}, map[string][]byte{"": nil}).must(t, http.StatusSeeOther)
}
