package web

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"strconv"

	"chatsvc/app"
)

// withIdempotency gives POST requests that carry an Idempotency-Key Stripe's
// semantics: the first response is stored and replayed for the same key and
// parameters within 24 hours.
func withIdempotency(svc *app.Service, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, ok := r.Header["Idempotency-Key"]
		if r.Method != http.MethodPost || !ok {
			next.ServeHTTP(w, r)
			return
		}
		body, err := readBody(w, r)
		if err != nil {
			writeError(w, r, err)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		m := mode(r)
		replay, err := svc.BeginIdempotent(r.Context(), m, key[0], app.Fingerprint(r.Method, r.URL.RequestURI(), body))
		if err != nil {
			writeError(w, r, err)
			return
		}
		if replay != nil {
			h := w.Header()
			h.Set("Content-Type", "application/json")
			h.Set("Content-Length", strconv.Itoa(len(replay.Body)))
			h.Set("Idempotent-Replayed", "true")
			w.WriteHeader(replay.Status)
			w.Write(replay.Body)
			return
		}
		rec := &recorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		// The response is stored even if the client went away meanwhile.
		if err := svc.FinishIdempotent(context.WithoutCancel(r.Context()), m, key[0], rec.status, rec.body.Bytes()); err != nil {
			slog.ErrorContext(r.Context(), "storing idempotent response", "request_id", requestID(r), "err", err)
		}
	})
}

// recorder passes a response through while keeping a copy.
type recorder struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	r.body.Write(b)
	return r.ResponseWriter.Write(b)
}
