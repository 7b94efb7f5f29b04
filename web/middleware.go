package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
)

type ctxKey int

const (
	keyRequest ctxKey = iota
	keyMode
)

// reqInfo is what the outermost middleware learns about a request: its id,
// and the route pattern the innermost router matched (for metrics).
type reqInfo struct {
	id      string
	pattern string
}

func info(ctx context.Context) *reqInfo {
	i, _ := ctx.Value(keyRequest).(*reqInfo)
	return i
}

func requestID(r *http.Request) string {
	if i := info(r.Context()); i != nil {
		return i.id
	}
	return ""
}

// withPattern records the route pattern a router matched.
func withPattern(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux.ServeHTTP(w, r)
		if i := info(r.Context()); i != nil && r.Pattern != "" && r.Pattern != "/v1/" {
			i.pattern = r.Pattern
		}
	})
}

// LogHandler adds the request id to every log record made with a request's
// context.
func LogHandler(h slog.Handler) slog.Handler { return logHandler{h} }

type logHandler struct{ slog.Handler }

func (h logHandler) Handle(ctx context.Context, r slog.Record) error {
	if i := info(ctx); i != nil {
		r.AddAttrs(slog.String("request_id", i.id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h logHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return logHandler{h.Handler.WithAttrs(as)}
}
func (h logHandler) WithGroup(name string) slog.Handler { return logHandler{h.Handler.WithGroup(name)} }

// mode is the mode of the API key that authenticated the request.
func mode(r *http.Request) chat.Mode {
	m, _ := r.Context().Value(keyMode).(chat.Mode)
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
// into 500 errors, counts the request in the metrics and logs it (at debug
// level: paths only, never bodies).
func withRequest(m *metrics, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ri := &reqInfo{id: app.NewID(app.PrefixRequest)}
		w.Header().Set("Request-Id", ri.id)
		w.Header().Set("X-Content-Type-Options", "nosniff") // no response is to be read as another type
		r = r.WithContext(context.WithValue(r.Context(), keyRequest, ri))
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				writeError(sw, r, fmt.Errorf("panic: %v", p))
			}
			d := time.Since(start)
			m.observe(ri.pattern, r.Method, sw.status, d)
			slog.DebugContext(r.Context(), "request", "method", r.Method, "route", ri.pattern, "path", r.URL.Path,
				"status", sw.status, "duration_ms", d.Milliseconds())
		}()
		next.ServeHTTP(sw, r)
	})
}

// withAPIKey authenticates a REST request by its bearer key and puts the
// key's mode in the context.
func withAPIKey(svc *app.Service, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok, ok := bearer(r)
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="chatsvc"`)
			writeError(w, r, app.AuthorizationSchemeError())
			return
		}
		m, err := svc.Authenticate(r.Context(), tok)
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="chatsvc"`)
			writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), keyMode, m)))
	})
}

// bearer returns the token of an "Authorization: Bearer <token>" header (""
// when there is no header); ok is false for a header of another form, such
// as a bare key, which is refused rather than guessed at.
func bearer(r *http.Request) (tok string, ok bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", true
	}
	scheme, tok, found := strings.Cut(h, " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(tok), true
}
