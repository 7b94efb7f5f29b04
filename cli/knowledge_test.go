package cli_test

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestServeSyncsSourcesAndHoldsTheIndex(t *testing.T) {
	in := newInstall(t)
	srv := in.serve()
	key := regexp.MustCompile(`csk_test_[A-Za-z0-9]+`).FindString(srv.out.String())
	code, body := in.call("POST", "/v1/knowledge-sources", key,
		`{"type":"text","name":"FAQ","content":"# Hours\nWe are open from nine to five."}`)
	if code != 201 {
		t.Fatalf("create source: %d %s", code, body)
	}
	id := regexp.MustCompile(`src_[A-Za-z0-9]+`).FindString(body)
	for deadline := time.Now().Add(10 * time.Second); ; {
		_, body = in.call("GET", "/v1/knowledge-sources/"+id, key, "")
		if strings.Contains(body, `"status": "ready"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the sync worker did not sync the source: %s", body)
		}
		time.Sleep(20 * time.Millisecond) // polling a real server's worker, not waiting on a schedule
	}
	if code, _, stderr := in.run("reindex"); code == 0 || !strings.Contains(stderr, "stop chatsvc serve") {
		t.Fatalf("reindex while serving: exit %d, %s", code, stderr)
	}
	srv.stop(t) // closes the index, so reindex can take it
	in.mustLast(`^Indexed 1 chunk\.$`, "reindex")
}
