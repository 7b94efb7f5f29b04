package cli_test

import (
	"regexp"
	"strings"
	"testing"
)

func TestServeSyncsSourcesAndHoldsTheIndex(t *testing.T) {
	in := newInstall(t)
	srv := in.serve()
	key := regexp.MustCompile(`csk_test_[A-Za-z0-9]+`).FindString(srv.out.String())
	in.readySource(key, "FAQ", "# Hours\nWe are open from nine to five.")
	if code, _, stderr := in.run("reindex"); code == 0 || !strings.Contains(stderr, "stop chatsvc serve") {
		t.Fatalf("reindex while serving: exit %d, %s", code, stderr)
	}
	srv.stop(t) // closes the index, so reindex can take it
	in.mustLast(`^Indexed 1 chunk\.$`, "reindex")
}
