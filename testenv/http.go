package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Response is an HTTP answer read to the end; Body holds it decoded when it
// is a JSON object.
type Response struct {
	Status int
	Header http.Header
	Body   map[string]any
	Raw    []byte
}

// NewRequest builds a request to url. body may be nil, a string (sent as
// is) or a value sent as JSON; header holds name, value pairs.
func NewRequest(method, url string, body any, header ...string) (*http.Request, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return nil, err
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return req, nil
}

// Do sends req and reads the answer; it never calls the test, so it may run
// on any goroutine.
func Do(client *http.Client, req *http.Request) (Response, error) {
	res, err := client.Do(req)
	if err != nil {
		return Response{}, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	r := Response{Status: res.StatusCode, Header: res.Header, Raw: raw}
	if err != nil {
		return r, err
	}
	if len(raw) > 0 && strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &r.Body); err != nil {
			return r, fmt.Errorf("%s %s: answer is not a JSON object: %v\n%s", req.Method, req.URL.Path, err, raw)
		}
	}
	return r, nil
}

// Call builds and sends a request, failing the test on any error of the
// transport or the encoding.
func Call(tb testing.TB, client *http.Client, method, url string, body any, header ...string) Response {
	tb.Helper()
	req, err := NewRequest(method, url, body, header...)
	if err != nil {
		tb.Fatal(err)
	}
	return Send(tb, client, req)
}

// Send sends a prepared request, failing the test on an error.
func Send(tb testing.TB, client *http.Client, req *http.Request) Response {
	tb.Helper()
	r, err := Do(client, req)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// OK asserts the status and returns the decoded body.
func (r Response) OK(tb testing.TB, status int) map[string]any {
	tb.Helper()
	if r.Status != status {
		tb.Fatalf("status %d, want %d; body: %s", r.Status, status, r.Raw)
	}
	return r.Body
}

// Fails asserts an answer in the API's error shape with the given status,
// code and param ("" for a null param), whose request_id is the Request-Id
// header.
func (r Response) Fails(tb testing.TB, status int, code, param string) {
	tb.Helper()
	if r.Status != status {
		tb.Fatalf("status %d, want %d; body: %s", r.Status, status, r.Raw)
	}
	e, ok := r.Body["error"].(map[string]any)
	if !ok {
		tb.Fatalf("no error object: %s", r.Raw)
	}
	for _, k := range []string{"type", "message", "code", "param", "request_id"} {
		if _, ok := e[k]; !ok {
			tb.Fatalf("error.%s missing: %s", k, r.Raw)
		}
	}
	if e["code"] != code {
		tb.Fatalf("error.code %v, want %s; body: %s", e["code"], code, r.Raw)
	}
	if p, _ := e["param"].(string); p != param {
		tb.Fatalf("error.param %q, want %q; body: %s", p, param, r.Raw)
	}
	if id := r.Header.Get("Request-Id"); id == "" || id != e["request_id"] {
		tb.Fatalf("Request-Id header %q != error.request_id %v", id, e["request_id"])
	}
	if msg, _ := e["message"].(string); msg == "" {
		tb.Fatalf("empty error.message: %s", r.Raw)
	}
}
