package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"hash/fnv"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"chatsvc/assistant/assistanttest"
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

// assistantServer is a started server answering on the assistant's REST
// endpoint, in a data folder tests reuse across restarts.
type assistantServer struct {
	t    *testing.T
	srv  *server.Server
	key  string // the test key, printed on the folder's first start only
	stop func()
}

// startAssistant serves dir with the example configuration and flags.
func startAssistant(t *testing.T, dir string, flags map[string]string) *assistantServer {
	t.Helper()
	defaults, err := os.ReadFile("../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]string{"addr": "127.0.0.1:0", "data_dir": dir}
	maps.Copy(all, flags)
	cfg, err := config.Load(config.Sources{Defaults: defaults, File: os.DevNull, Flags: all})
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
	return &assistantServer{t: t, srv: srv, key: regexp.MustCompile(`csk_test_[A-Za-z0-9]+`).FindString(out.String()), stop: func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
		srv.Close()
	}}
}

func (a *assistantServer) call(key, method, path, body string) (int, map[string]any) {
	a.t.Helper()
	req, _ := http.NewRequest(method, "http://"+a.srv.Addr()+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var m map[string]any
	json.Unmarshal(raw, &m)
	return res.StatusCode, m
}

// ask asks the assistant and returns the title of the first page cited
// ("" when none) and the answer.
func (a *assistantServer) ask(key, q string) (string, map[string]any) {
	a.t.Helper()
	body, _ := json.Marshal(map[string]string{"question": q})
	code, m := a.call(key, "POST", "/v1/assistant/answers", string(body))
	if code != http.StatusOK {
		a.t.Fatalf("ask %q: %d %v", q, code, m)
	}
	if src, _ := m["sources"].([]any); len(src) > 0 {
		return src[0].(map[string]any)["title"].(string), m
	}
	return "", m
}

// addParaphraseSources adds two text sources: one that a paraphrase of
// "stash" answers without sharing a word with it, and one about invoices.
func (a *assistantServer) addParaphraseSources(key string) {
	a.t.Helper()
	for _, s := range []string{
		`{"type":"text","name":"Shelving unfinished changes","content":"The stash command records the current state of the working tree and returns you to a clean one; apply it again when you are ready to continue."}`,
		`{"type":"text","name":"Invoices","content":"An invoice is e-mailed on the first day of every month and can be downloaded from the account page."}`,
	} {
		if code, m := a.call(key, "POST", "/v1/knowledge-sources", s); code != http.StatusCreated {
			a.t.Fatalf("create source: %d %v", code, m)
		}
	}
}

const paraphrase = "Can I park my edits for a while?"

// TestEmbeddingsFindAParaphraseTheWordsMiss: with assistant.embeddings
// set, a question that shares no word with the page that answers it is
// answered from that page; the vectors are kept across a restart (the
// server is asked only for the question's), and with the embeddings server
// down the word search still answers alone. The server is on loopback
// without network.allow_private: the operator named it.
func TestEmbeddingsFindAParaphraseTheWordsMiss(t *testing.T) {
	es := newEmbedServer(t)
	dir := t.TempDir()
	withServer := map[string]string{"assistant.embeddings.base_url": es.URL + "/v1", "assistant.embeddings.model": "test-embed"}

	// First without embeddings: the words alone do not find the page. The
	// test key is printed on the first start only.
	s := startAssistant(t, dir, nil)
	key := s.key
	s.addParaphraseSources(key)
	testenv.Eventually(t, "the sources to be searchable", func() bool { c, _ := s.ask(key, "When is the invoice e-mailed?"); return c == "Invoices" })
	if _, m := s.ask(key, paraphrase); m["known"] != false {
		t.Fatalf("without embeddings the paraphrase should be declined (the test would prove nothing): %v", m)
	}
	s.stop()

	// With embeddings the chunks are embedded once, and the paraphrase finds its page.
	s = startAssistant(t, dir, withServer)
	testenv.Eventually(t, "the chunks to be embedded", func() bool { return es.embedded() >= 2 })
	testenv.Eventually(t, "the paraphrase to be answered", func() bool {
		c, _ := s.ask(key, paraphrase)
		return c == "Shelving unfinished changes"
	})
	if _, m := s.ask(key, "What is the capital of Peru?"); m["known"] != false {
		t.Errorf("an unrelated question should still be declined: %v", m)
	}
	s.stop()

	// After a restart only questions are embedded: the vectors were kept.
	before := es.embedded()
	s = startAssistant(t, dir, withServer)
	defer s.stop()
	if got, _ := s.ask(key, paraphrase); got != "Shelving unfinished changes" {
		t.Errorf("after a restart the paraphrase cites %q", got)
	}
	if n := es.embedded() - before; n != 1 {
		t.Errorf("after a restart %d texts were embedded, want 1 (the question)", n)
	}
	// With the embeddings server down, the word search answers alone.
	es.setDown(true)
	if got, _ := s.ask(key, "When is the invoice e-mailed?"); got != "Invoices" {
		t.Errorf("with the embeddings server down the word search should still answer, cited %q", got)
	}
}

// TestStaticModelFindsAParaphraseOffline: with assistant.embeddings.model_dir
// naming a model2vec folder, the paraphrase is answered with no server at
// all, and an unrelated question is still declined.
func TestStaticModelFindsAParaphraseOffline(t *testing.T) {
	model := t.TempDir()
	rows := map[string][]float32{}
	for w := range meanings {
		rows[w] = embed(w)
	}
	for _, w := range regexp.MustCompile(`[a-z]+`).FindAllString("the command records current state of working tree and returns you to "+
		"a clean one apply it again when are ready continue an is e mailed on first day every month can be downloaded from account page "+
		"put my half finished work for later what capital peru", -1) {
		rows[w] = embed(w)
	}
	assistanttest.WriteStaticModel(t, model, rows, true)
	s := startAssistant(t, t.TempDir(), map[string]string{"assistant.embeddings.model_dir": model})
	defer s.stop()
	s.addParaphraseSources(s.key)
	testenv.Eventually(t, "the paraphrase to be answered", func() bool {
		c, _ := s.ask(s.key, paraphrase)
		return c == "Shelving unfinished changes"
	})
	if _, m := s.ask(s.key, "What is the capital of Peru?"); m["known"] != false {
		t.Errorf("an unrelated question should still be declined: %v", m)
	}
}
