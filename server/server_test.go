package server_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"chatsvc/config"
	"chatsvc/server"
)

// TestCloseWithoutRunReleasesTheDataDir opens a server on port 0 and closes
// it without running it: the port was a real one, the banner came once,
// and the data dir (its search index is held by one process at a time) can
// be opened again at once.
func TestCloseWithoutRunReleasesTheDataDir(t *testing.T) {
	defaults, err := os.ReadFile("../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(config.Sources{Defaults: defaults, File: os.DevNull,
		Flags: map[string]string{"addr": "127.0.0.1:0", "data_dir": t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	for i, wantBanner := range []bool{true, false} {
		var out bytes.Buffer
		srv, err := server.New(context.Background(), cfg, server.Options{Out: &out})
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		printed := strings.Contains(out.String(), "API:      http://"+srv.Addr()+"/v1\n")
		if strings.HasSuffix(srv.Addr(), ":0") || printed != wantBanner {
			t.Errorf("open %d on %s printed (want the banner with that address: %t):\n%s", i, srv.Addr(), wantBanner, out.String())
		}
		if err := srv.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
