package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// The banner's commands run the way serve was started, on the same files.
func TestBannerCommandFollowsHowServeStarted(t *testing.T) {
	// Tests run from a binary go built in a temporary folder, as go run does.
	g := &globals{configFile: "/srv/chat/my config.yaml", dataDir: "/srv/chat/data"}
	if got, want := g.command(), `go run . --config '/srv/chat/my config.yaml' --data /srv/chat/data`; got != want {
		t.Fatalf("command %q, want %q", got, want)
	}
}

// serve --cpu-profile writes a profile go tool pprof reads (gzip-compressed
// protocol buffers) once serve stops, and a file it cannot create is an
// error before serve starts.
func TestProfileCPUWritesAProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	stop, err := profileCPU(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for i := range 20_000_000 { // some CPU to sample
		sum += i % 7
	}
	stop()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("the profile (%d bytes, sum %d) is not gzip-compressed", len(b), sum)
	}
	if _, err := profileCPU(filepath.Join(t.TempDir(), "missing", "cpu.prof")); err == nil {
		t.Fatal("a profile in a folder that does not exist: no error")
	}
}
