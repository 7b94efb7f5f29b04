package files_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"chatsvc/files"
)

func TestCleanName(t *testing.T) {
	cases := []struct{ in, want string }{
		{"report.pdf", "report.pdf"},
		{"../../etc/passwd", "passwd"},
		{`C:\Users\ada\photo.png`, "photo.png"},
		{"line\nbreak\r.txt", "linebreak.txt"},
		{"  spaced  ", "spaced"},
		{"", "file"},
		{"..", "file"},
		{"dir/", "file"},
		{strings.Repeat("é", 300), strings.Repeat("é", files.MaxName)},
	}
	for _, c := range cases {
		if got := files.CleanName(c.in); got != c.want {
			t.Errorf("CleanName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSafeType(t *testing.T) {
	cases := []struct{ sniffed, want string }{
		{"image/png", "image/png"},
		{"application/pdf", "application/pdf"},
		{"text/plain; charset=utf-8", "text/plain; charset=utf-8"},
		{"text/html; charset=utf-8", "application/octet-stream"},
		{"text/xml; charset=utf-8", "application/octet-stream"},
		{"application/octet-stream", "application/octet-stream"},
		{"", "application/octet-stream"},
	}
	for _, c := range cases {
		if got := files.SafeType(c.sniffed); got != c.want {
			t.Errorf("SafeType(%q) = %q, want %q", c.sniffed, got, c.want)
		}
	}
}

func TestFetchStoresByHash(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello")
	}))
	defer srv.Close()
	dir := t.TempDir()
	s := files.New(files.Options{Dir: dir, MaxBytes: 5, Timeout: 5 * time.Second, AllowPrivate: true})
	a, err := s.Fetch(context.Background(), srv.URL+"/a/greeting.txt")
	if err != nil {
		t.Fatal(err)
	}
	const sha = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" // sha256("hello")
	if a.Hash != sha || a.Size != 5 || a.Name != "greeting.txt" || a.ContentType != "text/plain; charset=utf-8" {
		t.Fatalf("blob %+v", a)
	}
	b, err := s.Fetch(context.Background(), srv.URL+"/b")
	if err != nil || b.Hash != a.Hash {
		t.Fatalf("second copy: %+v %v", b, err)
	}
	stored, err := os.ReadFile(filepath.Join(dir, sha[:2], sha))
	if err != nil || string(stored) != "hello" {
		t.Fatalf("stored %q %v", stored, err)
	}
	left, _ := os.ReadDir(filepath.Join(dir, "tmp"))
	if len(left) != 0 {
		t.Fatalf("%d temporary files left", len(left))
	}
	if _, err := s.Open("../../etc/passwd"); err == nil {
		t.Fatal("Open accepted a path")
	}
	small := files.New(files.Options{Dir: dir, MaxBytes: 4, Timeout: 5 * time.Second, AllowPrivate: true})
	if _, err := small.Fetch(context.Background(), srv.URL); !errors.Is(err, files.ErrTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
	guarded := files.New(files.Options{Dir: dir, MaxBytes: 5, Timeout: 5 * time.Second})
	if _, err := guarded.Fetch(context.Background(), srv.URL); !errors.Is(err, files.ErrNotPublic) {
		t.Fatalf("loopback without allow_private: %v", err)
	}
}
