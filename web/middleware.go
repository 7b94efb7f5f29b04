package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"chatsvc/app"
	"chatsvc/storage"
)

type ctxKey int

const (
	keyRequestID ctxKey = iota
	keyMode
)

func requestID(r *http.Request) string {
	id, _ := r.Context().Value(keyRequestID).(string)
	return id
}

// mode is the mode of the API key that authenticated the request.
func mode(r *http.Request) storage.Mode {
	m, _ := r.Context().Value(keyMode).(storage.Mode)
	return m
}

// statusWriter remembers the status written, for the access log.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer (flushes, deadlines).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// withRequest gives every request an id (header Request-Id), turns panics
// into 500 errors and logs one line per request.
func withRequest(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := app.NewID(app.PrefixRequest)
		w.Header().Set("Request-Id", id)
		r = r.WithContext(context.WithValue(r.Context(), keyRequestID, id))
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				writeError(sw, r, fmt.Errorf("panic: %v", p))
			}
			slog.DebugContext(r.Context(), "request", "request_id", id, "method", r.Method, "path", r.URL.Path,
				"status", sw.status, "duration_ms", time.Since(start).Milliseconds())
		}()
		next.ServeHTTP(sw, r)
	})
}

// withAPIKey authenticates a REST request by its bearer key and puts the
// key's mode in the context.
func withAPIKey(svc *app.Service, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, err := svc.Authenticate(r.Context(), bearer(r))
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="chatsvc"`)
			writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), keyMode, m)))
	})
}

func bearer(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if scheme, tok, ok := strings.Cut(h, " "); ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimSpace(tok)
	}
	return h
}
