package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/files"
	"chatsvc/testenv/webenv"
)

// pngBytes is the start of a PNG file: enough for content sniffing.
var pngBytes = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{7}, 200)...)

// fileServer serves test files over plain HTTP on loopback and counts requests.
type fileServer struct {
	*httptest.Server
	hits atomic.Int64
}

func newFileServer(t *testing.T, maxBytes int) *fileServer {
	t.Helper()
	fs := &fileServer{}
	mux := http.NewServeMux()
	mux.HandleFunc("/notes.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html") // a lie the service must not repeat
		io.WriteString(w, "Order 42: refund approved.\n")
	})
	mux.HandleFunc("/img/photo%20one.png", func(w http.ResponseWriter, r *http.Request) { w.Write(pngBytes) })
	mux.HandleFunc("/download", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="invoice.pdf"`)
		io.WriteString(w, "%PDF-1.4\n%test\n")
	})
	mux.HandleFunc("/page.html", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!DOCTYPE html><html><script>alert(1)</script></html>")
	})
	mux.HandleFunc("/exact", func(w http.ResponseWriter, r *http.Request) { w.Write(bytes.Repeat([]byte("a"), maxBytes)) })
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { w.Write(bytes.Repeat([]byte("a"), maxBytes+1)) })
	mux.HandleFunc("/big-chunked", func(w http.ResponseWriter, r *http.Request) {
		// No Content-Length: the limit must hold while reading.
		for i := 0; i <= maxBytes; i += 100 {
			w.Write(bytes.Repeat([]byte("b"), 100))
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/missing", http.NotFound)
	fs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fs.hits.Add(1)
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(fs.Close)
	return fs
}

// attEnv is a service allowed to fetch from loopback over http (the
// development setting network.allow_private), with a small size cap.
func attEnv(t *testing.T, maxBytes int64) *webenv.Env {
	dir := t.TempDir()
	return webenv.New(t, func(o *app.Options) {
		o.Files = files.New(files.Options{Dir: filepath.Join(dir, "files"), MaxBytes: maxBytes, Timeout: 5 * time.Second,
			AllowPrivate: true})
	})
}

// fetch downloads a signed URL from the service (its host is the public
// URL's; the path and query go to the test server).
func fetch(e *webenv.Env, signed string) *http.Response {
	e.T.Helper()
	if !strings.HasPrefix(signed, webenv.PublicURL+"/files/att_") {
		e.T.Fatalf("attachment URL %q does not start with %s/files/att_", signed, webenv.PublicURL)
	}
	res, err := e.Server.Client().Get(e.Server.URL + strings.TrimPrefix(signed, webenv.PublicURL))
	if err != nil {
		e.T.Fatal(err)
	}
	return res
}

func body(t *testing.T, res *http.Response) []byte {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func attachmentsOf(t *testing.T, m map[string]any) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, a := range cvAnys(m["attachments"]) {
		out = append(out, a.(map[string]any))
	}
	return out
}

func TestAttachmentsDownloadedAndServed(t *testing.T) {
	t.Parallel()
	e := attEnv(t, 1000)
	fs := newFileServer(t, 1000)
	// An endpoint that will be sent the message, late.
	whe := e.Test("POST", "/v1/webhook-endpoints", map[string]any{"url": "https://hooks.example.com/in",
		"events": []string{"message.created"}}).OK(t, 201)["id"].(string)
	conv := e.Conversation(chat.Test, "Where is my refund?")
	m := e.Test("POST", cvPath(conv, "/messages"), map[string]any{"body": "Here you go", "author_id": e.Member,
		"attachments": []any{
			map[string]any{"url": fs.URL + "/notes.txt", "name": "Refund notes.txt"},
			map[string]any{"url": fs.URL + "/img/photo%20one.png"},
			map[string]any{"url": fs.URL + "/download"},
			map[string]any{"url": fs.URL + "/page.html", "name": "page.html"},
			map[string]any{"url": fs.URL + "/exact"},
		}}).OK(t, 201)
	cvMessage(t, m)
	atts := attachmentsOf(t, m)
	want := []struct {
		name, typ string
		data      []byte
	}{
		{"Refund notes.txt", "text/plain; charset=utf-8", []byte("Order 42: refund approved.\n")},
		{"photo one.png", "image/png", pngBytes},
		{"invoice.pdf", "application/pdf", []byte("%PDF-1.4\n%test\n")},
		{"page.html", "application/octet-stream", []byte("<!DOCTYPE html><html><script>alert(1)</script></html>")},
		{"exact", "text/plain; charset=utf-8", bytes.Repeat([]byte("a"), 1000)},
	}
	if len(atts) != len(want) {
		t.Fatalf("%d attachments, want %d: %v", len(atts), len(want), atts)
	}
	for i, w := range want {
		a := atts[i]
		cvEqual(t, "name", a["name"], w.name)
		cvEqual(t, "size", a["size"], float64(len(w.data)))
		res := fetch(e, a["url"].(string))
		got := body(t, res)
		if res.StatusCode != 200 || !bytes.Equal(got, w.data) {
			t.Fatalf("%s: status %d, %d bytes, want the %d bytes sent", w.name, res.StatusCode, len(got), len(w.data))
		}
		cvEqual(t, w.name+" Content-Type", res.Header.Get("Content-Type"), w.typ)
		cvEqual(t, w.name+" nosniff", res.Header.Get("X-Content-Type-Options"), "nosniff")
		disp, params, err := mime.ParseMediaType(res.Header.Get("Content-Disposition"))
		if err != nil || disp != "attachment" || params["filename"] != w.name {
			t.Fatalf("%s: Content-Disposition %q", w.name, res.Header.Get("Content-Disposition"))
		}
	}
	// The same bytes sent twice are stored once, under their hash.
	dup := e.Test("POST", cvPath(conv, "/messages"), map[string]any{"body": "Again", "author_id": e.Member,
		"attachments": []any{map[string]any{"url": fs.URL + "/notes.txt"}}}).OK(t, 201)
	cvEqual(t, "name from the URL", attachmentsOf(t, dup)[0]["name"], "notes.txt")
	if got := body(t, fetch(e, attachmentsOf(t, dup)[0]["url"].(string))); string(got) != string(want[0].data) {
		t.Fatalf("second copy: %q", got)
	}

	// Every response that shows the message signs its URLs afresh.
	e.Clock.Advance(10 * time.Minute)
	id := m["id"].(string)
	again := e.Test("GET", "/v1/messages/"+id, nil).OK(t, 200)
	listed := cvMessages(t, e, conv)[1]
	cvEqual(t, "listed message", listed["id"], id)
	for _, shown := range []map[string]any{again, listed} {
		a, b := expiresOf(t, atts[0]["url"].(string)), expiresOf(t, attachmentsOf(t, shown)[0]["url"].(string))
		if b-a < 599 || b-a > 601 {
			t.Fatalf("expiry moved by %ds, want 600", b-a)
		}
	}
	// The event carries the message with its attachments, signed at the
	// event's time; delivered later, it is signed afresh.
	ev := e.EventData(id, "message.created")
	cvEqual(t, "event attachment names", len(attachmentsOf(t, ev)), 5)
	cvEqual(t, "event attachment name", attachmentsOf(t, ev)[1]["name"], "photo one.png")
	evs, err := e.DB.Read().EventsOf(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(2 * time.Hour)
	// What the delivery worker sends now.
	if _, _, err := e.Svc.FanOutWebhooks(context.Background(), 100); err != nil {
		t.Fatal(err)
	}
	jobs, err := e.Svc.DueWebhookJobs(context.Background(), whe, 10)
	if err != nil {
		t.Fatal(err)
	}
	var payload []byte
	for _, j := range jobs {
		if j.Send.EventID == evs[0].ID {
			payload = j.Payload
		}
	}
	if payload == nil {
		t.Fatalf("no delivery of %s among %d due", evs[0].ID, len(jobs))
	}
	var posted struct {
		Data struct{ Object map[string]any }
	}
	if err := json.Unmarshal(payload, &posted); err != nil {
		t.Fatal(err)
	}
	delivered := posted.Data.Object
	cvEqual(t, "delivered body", delivered["body"], "Here you go")
	late := attachmentsOf(t, delivered)[1]["url"].(string)
	if res := fetch(e, late); res.StatusCode != 200 || !bytes.Equal(body(t, res), pngBytes) {
		t.Fatalf("URL of an event delivered two hours later: status %d", res.StatusCode)
	}
	res := fetch(e, attachmentsOf(t, ev)[1]["url"].(string))
	res.Body.Close()
	cvEqual(t, "stored event URL two hours later", res.StatusCode, 403)
}

func expiresOf(t *testing.T, signed string) int64 {
	t.Helper()
	u, err := url.Parse(signed)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.ParseInt(u.Query().Get("expires"), 10, 64)
	if err != nil {
		t.Fatalf("no expires in %s", signed)
	}
	return n
}

func TestAttachmentURLExpiresAfterOneHour(t *testing.T) {
	t.Parallel()
	e := attEnv(t, 1000)
	fs := newFileServer(t, 1000)
	conv := e.Conversation(chat.Test, "Hello")
	m := e.Test("POST", cvPath(conv, "/messages"), map[string]any{"body": "File", "author_id": e.Member,
		"attachments": []any{map[string]any{"url": fs.URL + "/notes.txt"}}}).OK(t, 201)
	signed := attachmentsOf(t, m)[0]["url"].(string)
	e.Clock.SetStep(0)
	e.Clock.Advance(59 * time.Minute)
	if res := fetch(e, signed); res.StatusCode != 200 {
		t.Fatalf("after 59 minutes: status %d", res.StatusCode)
	}
	e.Clock.Advance(61 * time.Second)
	res := fetch(e, signed)
	(webenv.Resp{Status: res.StatusCode, Header: res.Header, Body: decodeJSON(t, res)}).Fails(t, 403, "url_expired", "")
	// A fresh read of the message gives a URL that works again.
	fresh := attachmentsOf(t, e.Test("GET", "/v1/messages/"+m["id"].(string), nil).OK(t, 200))[0]["url"].(string)
	if res := fetch(e, fresh); res.StatusCode != 200 {
		t.Fatalf("fresh URL: status %d", res.StatusCode)
	}
}

func decodeJSON(t *testing.T, res *http.Response) map[string]any {
	t.Helper()
	r := webenv.Resp{}
	raw := body(t, res)
	if err := json.Unmarshal(raw, &r.Body); err != nil {
		t.Fatalf("not JSON: %s", raw)
	}
	return r.Body
}

func TestAttachmentURLTampered(t *testing.T) {
	t.Parallel()
	e := attEnv(t, 1000)
	fs := newFileServer(t, 1000)
	conv := e.Conversation(chat.Test, "Hello")
	m := e.Test("POST", cvPath(conv, "/messages"), map[string]any{"body": "Files", "author_id": e.Member,
		"attachments": []any{map[string]any{"url": fs.URL + "/notes.txt"}, map[string]any{"url": fs.URL + "/download"}}}).OK(t, 201)
	a, b := attachmentsOf(t, m)[0]["url"].(string), attachmentsOf(t, m)[1]["url"].(string)
	ua, _ := url.Parse(a)
	ub, _ := url.Parse(b)
	sig := ua.Query().Get("signature")
	flip := "A"
	if sig[0] == 'A' {
		flip = "B"
	}
	exp := ua.Query().Get("expires")
	later := strconv.FormatInt(expiresOf(t, a)+3600, 10)
	otherID := strings.Split(ub.Path, "/")[2]
	cases := map[string]string{
		"signature changed":     ua.Path + "?expires=" + exp + "&signature=" + flip + sig[1:],
		"expiry pushed back":    ua.Path + "?expires=" + later + "&signature=" + sig,
		"another file's id":     "/files/" + otherID + "/notes.txt?expires=" + exp + "&signature=" + sig,
		"name changed":          "/files/" + strings.Split(ua.Path, "/")[2] + "/other.txt?expires=" + exp + "&signature=" + sig,
		"no signature":          ua.Path + "?expires=" + exp,
		"no expiry":             ua.Path + "?signature=" + sig,
		"expiry not a number":   ua.Path + "?expires=soon&signature=" + sig,
		"signature of another":  ua.Path + "?expires=" + exp + "&signature=" + ub.Query().Get("signature"),
		"unknown attachment id": "/files/att_doesnotexist/notes.txt?expires=" + exp + "&signature=" + sig,
	}
	for name, path := range cases {
		t.Run(name, func(t *testing.T) {
			e.Do("GET", path, "", nil).Fails(t, 403, "signature_invalid", "")
		})
	}
	if res := fetch(e, a); res.StatusCode != 200 {
		t.Fatalf("untouched URL: status %d", res.StatusCode)
	}
}

func TestAttachmentFailuresLeaveNoMessage(t *testing.T) {
	t.Parallel()
	e := attEnv(t, 1000)
	fs := newFileServer(t, 1000)
	conv := e.Conversation(chat.Test, "Hello")
	post := func(atts ...any) webenv.Resp {
		return e.Test("POST", cvPath(conv, "/messages"), map[string]any{"body": "Files", "author_id": e.Member, "attachments": atts})
	}
	u := func(p string) map[string]any { return map[string]any{"url": fs.URL + p} }
	cases := []struct {
		name        string
		atts        []any
		code, param string
		says        string // the message names what went wrong
	}{
		{"over the size cap", []any{u("/notes.txt"), u("/big")}, "attachment_too_large", "attachments.1.url", "limit"},
		{"over the size cap without Content-Length", []any{u("/big-chunked")}, "attachment_too_large", "attachments.0.url", "limit"},
		{"not found", []any{u("/notes.txt"), u("/notes.txt"), u("/missing")}, "attachment_unavailable", "attachments.2.url", "HTTP 404"},
		{"nobody listening", []any{map[string]any{"url": "http://127.0.0.1:1/x"}}, "attachment_unavailable", "attachments.0.url", "(connection refused)"},
	}
	before := e.Events(conv)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := post(c.atts...)
			r.Fails(t, 400, c.code, c.param)
			if msg := r.Body["error"].(map[string]any)["message"].(string); !strings.Contains(msg, c.says) {
				t.Errorf("message %q does not say %q", msg, c.says)
			}
		})
	}
	// A sixth attachment is refused before anything is downloaded.
	hits := fs.hits.Load()
	six := []any{u("/notes.txt"), u("/notes.txt"), u("/notes.txt"), u("/notes.txt"), u("/notes.txt"), u("/notes.txt")}
	post(six...).Fails(t, 400, "parameter_invalid", "attachments")
	post(six[:5]...).OK(t, 201)
	if got := fs.hits.Load() - hits; got != 5 {
		t.Fatalf("%d downloads for a refused 6 and an accepted 5, want 5", got)
	}
	// Only the accepted message exists.
	msgs := cvMessages(t, e, conv)
	if len(msgs) != 2 || len(attachmentsOf(t, msgs[1])) != 5 {
		t.Fatalf("messages after failures: %d", len(msgs))
	}
	cvEqual(t, "message_count", cvGet(t, e, conv)["message_count"], float64(2))
	// The accepted message, the first from a person, took the conversation over.
	cvEqual(t, "conversation events", e.Events(conv), append(before, "test:conversation.handed_off"))

	// A closed conversation refuses before downloading.
	closed := cvInState(t, e, "closed")
	hits = fs.hits.Load()
	e.Test("POST", cvPath(closed, "/messages"), map[string]any{"body": "x", "author_id": e.Member,
		"attachments": []any{u("/notes.txt")}}).Fails(t, 409, "conversation_closed", "")
	e.Test("POST", cvPath("conv_nope", "/messages"), map[string]any{"body": "x", "author_id": e.Member,
		"attachments": []any{u("/notes.txt")}}).Fails(t, 404, "resource_missing", "id")
	if fs.hits.Load() != hits {
		t.Fatal("a refused message downloaded its attachments")
	}
}

func TestAttachmentPrivateAddressRefused(t *testing.T) {
	t.Parallel()
	e := webenv.New(t) // network.allow_private false
	fs := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("the guard let a request through to a loopback server")
	}))
	defer fs.Close()
	conv := e.Conversation(chat.Test, "Hello")
	for _, u := range []string{fs.URL + "/a.txt", "https://localhost:" + fs.URL[strings.LastIndex(fs.URL, ":")+1:] + "/a.txt"} {
		e.Test("POST", cvPath(conv, "/messages"), map[string]any{"body": "x", "author_id": e.Member,
			"attachments": []any{map[string]any{"url": u}}}).Fails(t, 400, "parameter_invalid", "attachments.0.url")
	}
	// http:// is for development only.
	e.Test("POST", cvPath(conv, "/messages"), map[string]any{"body": "x", "author_id": e.Member,
		"attachments": []any{map[string]any{"url": "http://files.example.com/a.txt"}}}).Fails(t, 400, "parameter_invalid", "attachments.0.url")
	if n := len(cvMessages(t, e, conv)); n != 1 {
		t.Fatalf("%d messages", n)
	}
}

func TestAttachmentNameLimits(t *testing.T) {
	t.Parallel()
	e := attEnv(t, 1000)
	fs := newFileServer(t, 1000)
	conv := e.Conversation(chat.Test, "Hello")
	post := func(name any) webenv.Resp {
		return e.Test("POST", cvPath(conv, "/messages"), map[string]any{"body": "x", "author_id": e.Member,
			"attachments": []any{map[string]any{"url": fs.URL + "/notes.txt"}, map[string]any{"url": fs.URL + "/notes.txt", "name": name}}})
	}
	hits := fs.hits.Load()
	post("").Fails(t, 400, "parameter_invalid", "attachments.1.name")
	post("  ").Fails(t, 400, "parameter_invalid", "attachments.1.name")
	post(str("é", 256)).Fails(t, 400, "parameter_invalid", "attachments.1.name")
	post(nil).Fails(t, 400, "parameter_invalid", "attachments.1.name")
	if fs.hits.Load() != hits {
		t.Fatal("a refused request downloaded its attachments")
	}
	cvEqual(t, "255 characters", attachmentsOf(t, post(str("é", 255)).OK(t, 201))[1]["name"], str("é", 255))
	cvEqual(t, "folders dropped", attachmentsOf(t, post("../../etc/passwd").OK(t, 201))[1]["name"], "passwd")
}
