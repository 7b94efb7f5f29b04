package cli

import "testing"

// The banner's commands run the way serve was started, on the same files.
func TestBannerCommandFollowsHowServeStarted(t *testing.T) {
	// Tests run from a binary go built in a temporary folder, as go run does.
	g := &globals{configFile: "/srv/chat/my config.yaml", dataDir: "/srv/chat/data"}
	if got, want := g.command(), `go run . --config '/srv/chat/my config.yaml' --data /srv/chat/data`; got != want {
		t.Fatalf("command %q, want %q", got, want)
	}
}
