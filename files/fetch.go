package files

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"unicode"

	"chatsvc/outbound"
)

// Blob is a downloaded file, stored.
type Blob struct {
	Hash        string
	Size        int64
	ContentType string // sniffed from the bytes, never taken from the server
	Name        string // from Content-Disposition or the URL's last segment
}

// ErrNotPublic is returned when a URL leads to an address the guard refuses.
var ErrNotPublic = errors.New("the address is not public")

// FetchError is a download that failed for a reason worth telling the caller
// (an HTTP status, a timeout, an unreachable host), in Reason.
type FetchError struct {
	Reason string
	Err    error
}

func (e *FetchError) Error() string { return e.Reason + ": " + e.Err.Error() }
func (e *FetchError) Unwrap() error { return e.Err }

// Fetch downloads rawURL into the store. It fails with ErrTooLarge beyond
// the limit, ErrNotPublic for refused addresses, *FetchError for other
// failures of the remote side, and plain errors for local ones.
func (s *Store) Fetch(ctx context.Context, rawURL string) (Blob, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return Blob{}, &FetchError{Reason: "the URL cannot be requested", Err: err}
	}
	res, err := s.client.Do(req)
	if err != nil {
		if outbound.IsPrivateAddress(err) {
			return Blob{}, ErrNotPublic
		}
		return Blob{}, &FetchError{Reason: "the file could not be downloaded (" + cmp.Or(outbound.Reason(err, s.timeout), "connection failed") + ")", Err: err}
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return Blob{}, &FetchError{Reason: fmt.Sprintf("the server answered HTTP %d", res.StatusCode),
			Err: errors.New(res.Status)}
	}
	if res.ContentLength > s.max {
		return Blob{}, ErrTooLarge
	}
	hash, size, head, err := s.put(res.Body)
	if errors.Is(err, ErrTooLarge) {
		return Blob{}, err
	} else if errors.Is(err, errRead) {
		return Blob{}, &FetchError{Reason: "the download was interrupted", Err: err}
	} else if err != nil {
		return Blob{}, err
	}
	return Blob{Hash: hash, Size: size, ContentType: http.DetectContentType(head), Name: nameOf(res)}, nil
}

// nameOf picks the file's name: the server's Content-Disposition filename,
// else the last segment of the final URL's path.
func nameOf(res *http.Response) string {
	if _, params, err := mime.ParseMediaType(res.Header.Get("Content-Disposition")); err == nil && params["filename"] != "" {
		return CleanName(params["filename"])
	}
	u := res.Request.URL
	if p, err := url.PathUnescape(u.EscapedPath()); err == nil {
		return CleanName(path.Base(p))
	}
	return CleanName("")
}

// MaxName is the longest file name kept, in characters.
const MaxName = 255

// CleanName makes a name safe to show and to offer as a download name: no
// folders, no control characters, at most MaxName characters; "file" when
// nothing is left.
func CleanName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == unicode.ReplacementChar {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	if r := []rune(name); len(r) > MaxName {
		name = string(r[:MaxName])
	}
	if name == "" || name == "." || name == ".." {
		return "file"
	}
	return name
}

// inline lists the sniffed types a browser may be told as they are: none of
// them can run script in our origin. Everything else is served as
// application/octet-stream.
var inline = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true, "image/bmp": true,
	"application/pdf": true, "text/plain; charset=utf-8": true, "text/plain; charset=utf-16be": true,
	"text/plain; charset=utf-16le": true, "audio/mpeg": true, "audio/wave": true, "audio/ogg": true,
	"video/mp4": true, "video/webm": true, "application/zip": true,
}

// Servable reports whether a file of sniffed type ct is served as what it
// is; any other is served as application/octet-stream.
func Servable(ct string) bool { return inline[ct] }

// SafeType is the Content-Type to serve a file of sniffed type ct with.
func SafeType(ct string) string {
	if Servable(ct) {
		return ct
	}
	return "application/octet-stream"
}

// Save stores r's bytes, up to the store's limit, as a file called name:
// the path of files that arrive with an e-mail rather than by URL.
func (s *Store) Save(r io.Reader, name string) (Blob, error) {
	hash, size, head, err := s.put(r)
	if err != nil {
		return Blob{}, err
	}
	return Blob{Hash: hash, Size: size, ContentType: http.DetectContentType(head), Name: CleanName(name)}, nil
}
