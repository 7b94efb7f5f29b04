package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"hash/fnv"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"chatsvc/config"
	"chatsvc/server"
	"chatsvc/testenv"
)

// embedServer is an OpenAI-compatible /embeddings server on loopback. Its
// vectors put words of one meaning on one axis ("aside" and "stash"), the
// way a real model places paraphrases near each other, and every other
// word on an axis of its own.
type embedServer struct {
	*httptest.Server
	mu     sync.Mutex
	inputs int  // texts embedded so far
	down   bool // answer 503
}

var meanings = map[string]int{"stash": 0, "shelve": 0, "aside": 0, "park": 0, "invoice": 1, "bill": 1, "billing": 1}

func newEmbedServer(t *testing.T) *embedServer {
	e := &embedServer{}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&in) != nil || in.Model != "test-embed" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		e.mu.Lock()
		down := e.down
		if !down {
			e.inputs += len(in.Input)
		}
		e.mu.Unlock()
		if down {
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
			return
		}
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		out := struct {
			Data []item `json:"data"`
		}{}
		for i, text := range in.Input {
			out.Data = append(out.Data, item{Index: i, Embedding: embed(text)})
		}
		json.NewEncoder(w).Encode(out)
	}))
	t.Cleanup(e.Close)
	return e
}

func embed(text string) []float32 {
	v := make([]float32, 64)
	for _, w := range regexp.MustCompile(`[a-z]+`).FindAllString(strings.ToLower(text), -1) {
		if axis, ok := meanings[w]; ok {
			v[axis] += 3
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(w))
		v[2+h.Sum32()%62] += 0.3
	}
	return v
}

func (e *embedServer) embedded() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.inputs
}

func (e *embedServer) setDown(down bool) {
	e.mu.Lock()
	e.down = down
	e.mu.Unlock()
}

// TestEmbeddingsFindAParaphraseTheWordsMiss: with assistant.embeddings
// set, a question that shares no word with the page that answers it is
// answered from that page; the vectors are kept across a restart (the
// server is asked only for the question's), and with the embeddings server
// down the word search still answers alone. The server is on loopback
// without network.allow_private: the operator named it.
func TestEmbeddingsFindAParaphraseTheWordsMiss(t *testing.T) {
	es := newEmbedServer(t)
	dir := t.TempDir()
	const paraphrase = "Can I put my half-finished work aside for later?"

	start := func(embeddings bool) (*server.Server, string, func()) {
		defaults, err := os.ReadFile("../config.example.yaml")
		if err != nil {
			t.Fatal(err)
		}
		flags := map[string]string{"addr": "127.0.0.1:0", "data_dir": dir}
		if embeddings {
			flags["assistant.embeddings.base_url"] = es.URL + "/v1"
			flags["assistant.embeddings.model"] = "test-embed"
		}
		cfg, err := config.Load(config.Sources{Defaults: defaults, File: os.DevNull, Flags: flags})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		srv, err := server.New(context.Background(), cfg, server.Options{Out: &out})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- srv.Run(ctx) }()
		return srv, regexp.MustCompile(`csk_test_[A-Za-z0-9]+`).FindString(out.String()), func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("run: %v", err)
			}
			srv.Close()
		}
	}
	call := func(srv *server.Server, key, method, path, body string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(method, "http://"+srv.Addr()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		var m map[string]any
		json.Unmarshal(raw, &m)
		return res.StatusCode, m
	}
	ask := func(srv *server.Server, key, q string) map[string]any {
		t.Helper()
		body, _ := json.Marshal(map[string]string{"question": q})
		code, m := call(srv, key, "POST", "/v1/assistant/answers", string(body))
		if code != http.StatusOK {
			t.Fatalf("ask %q: %d %v", q, code, m)
		}
		return m
	}
	cited := func(m map[string]any) string {
		if src, _ := m["sources"].([]any); len(src) > 0 {
			return src[0].(map[string]any)["title"].(string)
		}
		return ""
	}

	// First without embeddings: the words alone do not find the page. The
	// test key is printed on the first start only.
	srv, key, stop := start(false)
	for _, s := range []string{
		`{"type":"text","name":"Shelving unfinished changes","content":"The stash command records the current state of the working tree and returns you to a clean one; apply it again when you are ready to continue."}`,
		`{"type":"text","name":"Invoices","content":"An invoice is e-mailed on the first day of every month and can be downloaded from the account page."}`,
	} {
		if code, m := call(srv, key, "POST", "/v1/knowledge-sources", s); code != http.StatusCreated {
			t.Fatalf("create source: %d %v", code, m)
		}
	}
	testenv.Eventually(t, "the sources to be searchable", func() bool { return cited(ask(srv, key, "When is the invoice e-mailed?")) == "Invoices" })
	if m := ask(srv, key, paraphrase); m["known"] != false {
		t.Fatalf("without embeddings the paraphrase should be declined (the test would prove nothing): %v", m)
	}
	stop()

	// With embeddings the chunks are embedded once, and the paraphrase finds its page.
	srv, _, stop = start(true)
	testenv.Eventually(t, "the chunks to be embedded", func() bool { return es.embedded() >= 2 })
	testenv.Eventually(t, "the paraphrase to be answered", func() bool { return cited(ask(srv, key, paraphrase)) == "Shelving unfinished changes" })
	if m := ask(srv, key, "What is the capital of Peru?"); m["known"] != false {
		t.Errorf("an unrelated question should still be declined: %v", m)
	}
	stop()

	// After a restart only questions are embedded: the vectors were kept.
	before := es.embedded()
	srv, _, stop = start(true)
	defer stop()
	if got := cited(ask(srv, key, paraphrase)); got != "Shelving unfinished changes" {
		t.Errorf("after a restart the paraphrase cites %q", got)
	}
	if n := es.embedded() - before; n != 1 {
		t.Errorf("after a restart %d texts were embedded, want 1 (the question)", n)
	}
	// With the embeddings server down, the word search answers alone.
	es.setDown(true)
	if got := cited(ask(srv, key, "When is the invoice e-mailed?")); got != "Invoices" {
		t.Errorf("with the embeddings server down the word search should still answer, cited %q", got)
	}
}
