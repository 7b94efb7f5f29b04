// Package openapicheck holds the REST API's responses to docs/openapi.json
// in tests: a client transport that validates every /v1 and /widget/v1
// response it carries
// with kin-openapi and reports mismatches to the test. The server never
// imports it.
package openapicheck

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"chatsvc/docs"
)

// T is the part of *testing.T the checker reports to.
type T interface {
	Helper()
	Errorf(format string, args ...any)
}

var (
	loadOnce   sync.Once
	loaded     *openapi3.T
	loadErr    error
	validators *bodyValidators // of loaded's body schemas, shared by every Checker
)

// Load parses docs/openapi.json and checks it with kin-openapi's validator
// (OpenAPI 3.1 rules, JSON Schema 2020-12 for the schemas). The document is
// parsed once per test binary; callers must not change it.
func Load() (*openapi3.T, error) {
	loadOnce.Do(func() {
		loader := openapi3.NewLoader()
		loaded, loadErr = loader.LoadFromData(docs.OpenAPI)
		if loadErr == nil {
			loadErr = loaded.Validate(loader.Context)
		}
		if loadErr == nil {
			validators, loadErr = newBodyValidators(loaded)
		}
	})
	return loaded, loadErr
}

// Checker is an http.RoundTripper that validates the responses of one
// server's REST API against the document.
type Checker struct {
	t      T
	base   http.RoundTripper
	router routers.Router
	errors *openapi3.Schema

	mu   sync.Mutex
	seen map[string]bool // "operationId status"
}

// New returns a Checker for the server at serverURL (scheme and host, as
// httptest.Server.URL), sending through base (nil: http.DefaultTransport).
// An unusable document fails t at once.
func New(t T, serverURL string, base http.RoundTripper) *Checker {
	t.Helper()
	if base == nil {
		base = http.DefaultTransport
	}
	c := &Checker{t: t, base: base, seen: map[string]bool{}}
	doc, err := Load()
	if err != nil {
		t.Errorf("docs/openapi.json: %v", err)
		return c
	}
	local := *doc // the shared document stays as loaded
	root := strings.TrimRight(serverURL, "/")
	local.Servers = openapi3.Servers{{URL: root + "/v1"}}
	local.Paths = openapi3.NewPaths()
	for path, item := range doc.Paths.Map() {
		if len(item.Servers) > 0 { // the widget's, served from the root
			copied := *item
			copied.Servers = openapi3.Servers{{URL: root}}
			item = &copied
		}
		local.Paths.Set(path, item)
	}
	if c.router, err = gorillamux.NewRouter(&local); err != nil {
		t.Errorf("docs/openapi.json: routes: %v", err)
	}
	c.errors = doc.Components.Schemas["Error"].Value
	return c
}

// RoundTrip sends req and, when req is to /v1 or /widget/v1, validates the
// response and, when the server accepted it, the request: what the server
// takes, the document must allow. An event stream is not read: its
// request is checked, and its status counted as seen.
func (c *Checker) RoundTrip(req *http.Request) (*http.Response, error) {
	checked := strings.HasPrefix(req.URL.Path, "/v1/") || strings.HasPrefix(req.URL.Path, "/widget/v1/")
	if c.router == nil || !checked || req.Method == http.MethodHead || req.Method == http.MethodOptions {
		return c.base.RoundTrip(req)
	}
	var sent []byte
	if req.Body != nil {
		var err error
		if sent, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(sent))
	}
	res, err := c.base.RoundTrip(req)
	if err != nil {
		return res, err
	}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		if problem := c.checkRequest(req, sent); problem != "" {
			c.t.Errorf("%s %s was accepted (%d), but docs/openapi.json does not allow the request: %s",
				req.Method, req.URL.RequestURI(), res.StatusCode, problem)
		}
		c.saw(req, res.StatusCode)
		return res, nil
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return res, nil // the caller sees the short body
	}
	if problem := c.check(req, res, body); problem != "" {
		c.t.Errorf("%s %s answered %d, which docs/openapi.json does not describe: %s\nbody: %s",
			req.Method, req.URL.RequestURI(), res.StatusCode, problem, body)
	}
	if res.StatusCode < 300 {
		if problem := c.checkRequest(req, sent); problem != "" {
			c.t.Errorf("%s %s was accepted (%d), but docs/openapi.json does not allow the request: %s\nrequest body: %s",
				req.Method, req.URL.RequestURI(), res.StatusCode, problem, sent)
		}
	}
	return res, nil
}

// checkRequest returns what the document finds wrong with a request, or "".
// The API key is not checked (the server did).
func (c *Checker) checkRequest(req *http.Request, body []byte) string {
	req = req.Clone(req.Context())
	req.Body = io.NopCloser(bytes.NewReader(body))
	if len(body) > 0 && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json") // the server reads JSON whatever the header says
	}
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		return err.Error()
	}
	var schema *openapi3.MediaType // of a JSON body, checked here rather than by the library
	if rb := route.Operation.RequestBody; rb != nil && rb.Value != nil && len(body) > 0 {
		schema = jsonBody(rb.Value.Content, req.Header.Get("Content-Type"))
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
			SkipSettingDefaults: true, MultiError: true, ExcludeRequestBody: schema != nil}}
	var problems []string
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		problems = append(problems, err.Error())
	}
	if schema != nil {
		if err := checkJSON(schema, req.Header, body, openapi3.VisitAsRequest(), openapi3.MultiErrors()); err != nil {
			problems = append(problems, "request body has an error: "+err.Error())
		}
	}
	if len(problems) > 0 {
		return strings.Join(problems, " | ")
	}
	for name := range req.URL.Query() { // kin-openapi lets undescribed ones pass
		if route.Operation.Parameters.GetByInAndName(openapi3.ParameterInQuery, name) == nil {
			return "query parameter " + name + " is not described"
		}
	}
	return ""
}

// check returns what is wrong with a response, or "".
func (c *Checker) check(req *http.Request, res *http.Response, body []byte) string {
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		// No described operation: only the router's own answers may come back.
		if !slices.Contains([]int{http.StatusUnauthorized, http.StatusNotFound, http.StatusMethodNotAllowed}, res.StatusCode) {
			return fmt.Sprintf("no operation (%v), yet not a routing error", err)
		}
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			return "the body is not JSON"
		}
		if err := c.errors.VisitJSON(v, openapi3.EnableJSONSchema2020()); err != nil {
			return "not the error shape: " + err.Error()
		}
		return ""
	}
	schema := responseJSONBody(route.Operation.Responses, res)
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 res.StatusCode,
		Header:                 res.Header,
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true, ExcludeResponseBody: schema != nil},
	}
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return err.Error()
	}
	if schema != nil {
		if err := checkJSON(schema, res.Header, body, openapi3.VisitAsResponse(), openapi3.MultiErrors()); err != nil {
			return "response body: " + err.Error()
		}
	}
	c.saw(req, res.StatusCode)
	return ""
}

// responseJSONBody is the media type of res's JSON body in responses, or
// nil when the library is to check the body: not JSON, not described, or
// of a status it never checks.
func responseJSONBody(responses *openapi3.Responses, res *http.Response) *openapi3.MediaType {
	switch res.StatusCode {
	case http.StatusNotModified, http.StatusPermanentRedirect, http.StatusTemporaryRedirect, http.StatusMovedPermanently:
		return nil
	}
	ref := responses.Status(res.StatusCode)
	if ref == nil {
		ref = responses.Default()
	}
	if ref == nil || ref.Value == nil {
		return nil
	}
	return jsonBody(ref.Value.Content, res.Header.Get("Content-Type"))
}

// jsonBody is the media type content describes for a body sent as
// contentType, when that is JSON and has a schema, else nil.
func jsonBody(content openapi3.Content, contentType string) *openapi3.MediaType {
	base, _, _ := strings.Cut(contentType, ";")
	if !strings.EqualFold(strings.TrimSpace(base), "application/json") {
		return nil
	}
	mt := content.Get(contentType)
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return nil
	}
	return mt
}

// checkJSON decodes body as the library does (numbers kept as written)
// and validates it against mt's schema with the validator compiled once.
func checkJSON(mt *openapi3.MediaType, header http.Header, body []byte, opts ...openapi3.SchemaValidationOption) error {
	value, err := openapi3filter.JSONBodyDecoder(bytes.NewReader(body), header, mt.Schema, nil)
	if err != nil {
		return fmt.Errorf("failed to decode: %w", err)
	}
	if err := validators.validate(mt.Schema.Value, value, opts...); err != nil {
		return fmt.Errorf("doesn't match schema: %w", err)
	}
	return nil
}

// saw records that a response of req's operation with status was checked.
func (c *Checker) saw(req *http.Request, status int) {
	route, _, err := c.router.FindRoute(req)
	if err != nil {
		return
	}
	c.mu.Lock()
	c.seen[fmt.Sprintf("%s %d", route.Operation.OperationID, status)] = true
	c.mu.Unlock()
}

// Seen reports whether a response of operationID with status was validated.
func (c *Checker) Seen(operationID string, status int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seen[fmt.Sprintf("%s %d", operationID, status)]
}

// CloseIdleConnections closes the idle connections of the base transport,
// as httptest.Server.Close expects of its client's transport.
func (c *Checker) CloseIdleConnections() {
	if t, ok := c.base.(interface{ CloseIdleConnections() }); ok {
		t.CloseIdleConnections()
	}
}
