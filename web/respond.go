package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"chatsvc/app"
)

// apiError is the API's error object (docs/api.md, Errors).
type apiError struct {
	Type      string  `json:"type"`
	Message   string  `json:"message"`
	Code      string  `json:"code"`
	Param     *string `json:"param"`
	RequestID string  `json:"request_id"`
}

// kindMethodNotAllowed is a routing failure, known only to this package.
const kindMethodNotAllowed app.Kind = 100

// kinds maps each app error kind to its HTTP status and error type.
var kinds = map[app.Kind]struct {
	status int
	typ    string
}{
	app.Invalid:          {http.StatusBadRequest, "invalid_request_error"},
	app.NotFound:         {http.StatusNotFound, "invalid_request_error"},
	app.Conflict:         {http.StatusConflict, "invalid_request_error"},
	app.TooLarge:         {http.StatusRequestEntityTooLarge, "invalid_request_error"},
	app.Unauthorized:     {http.StatusUnauthorized, "authentication_error"},
	app.Forbidden:        {http.StatusForbidden, "permission_error"},
	app.RateLimited:      {http.StatusTooManyRequests, "rate_limit_error"},
	kindMethodNotAllowed: {http.StatusMethodNotAllowed, "invalid_request_error"},
}

// writeJSON writes v with the given status, indented for people using curl.
func writeJSON(w http.ResponseWriter, status int, v any) {
	compact, out := buffers.Get().(*bytes.Buffer), buffers.Get().(*bytes.Buffer)
	defer release(compact, out)
	if err := encodeCompact(compact, v); err != nil {
		status = http.StatusInternalServerError
		out.WriteString(`{"error":{"type":"api_error","message":"The response could not be encoded.","code":"internal_error","param":null}}`)
	} else {
		out.Write(append(indent(out.AvailableBuffer(), compact.Bytes()), '\n'))
	}
	writeBody(w, status, out.Bytes())
}

// renderJSON returns the body writeJSON writes for v, in a slice of its
// own: what app keeps of an object read by id and gives out again.
func renderJSON(v any) ([]byte, error) {
	compact := buffers.Get().(*bytes.Buffer)
	defer release(compact)
	if err := encodeCompact(compact, v); err != nil {
		return nil, err
	}
	return append(indent(make([]byte, 0, compact.Len()*5/4+64), compact.Bytes()), '\n'), nil
}

func encodeCompact(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// release returns buffers to the pool, unless they grew too large to keep.
func release(bufs ...*bytes.Buffer) {
	for _, b := range bufs {
		if b.Cap() <= maxPooled {
			b.Reset()
			buffers.Put(b)
		}
	}
}

// writeBody writes a JSON body as it is.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// writeError answers with the API's error shape. Errors that are not
// *app.Error are logged and answered as a bare 500: internals never leak.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	id := requestID(r)
	var ae *app.Error
	if !errors.As(err, &ae) {
		slog.ErrorContext(r.Context(), "request failed", "request_id", id, "method", r.Method,
			"path", r.URL.Path, "err", err)
		writeJSON(w, http.StatusInternalServerError, map[string]apiError{"error": {Type: "api_error",
			Code: "internal_error", Message: "Something went wrong on our side; the request id identifies it in our logs.",
			RequestID: id}})
		return
	}
	k, ok := kinds[ae.Kind]
	if !ok {
		k = kinds[app.Invalid]
	}
	if ae.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((ae.RetryAfter+999_999_999)/1e9)))
	}
	e := apiError{Type: k.typ, Message: ae.Message, Code: ae.Code, RequestID: id}
	if ae.Param != "" {
		e.Param = &ae.Param
	}
	writeJSON(w, k.status, map[string]apiError{"error": e})
}

// reply writes v with status, or the error when err is set.
func reply(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, status, v)
}

// replyRendered writes a body rendered by renderJSON with status 200, or
// the error when err is set.
func replyRendered(w http.ResponseWriter, r *http.Request, body []byte, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeBody(w, http.StatusOK, body)
}
