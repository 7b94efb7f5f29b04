package chat

import (
	"os"
	"strings"
	"testing"
)

// TestNextStatusEveryPair checks every status × trigger pair against the
// rules of docs/api.md (Conversations, Widget API): "to", "to +event",
// "to +event =assign" or "refused".
func TestNextStatusEveryPair(t *testing.T) {
	t.Parallel()
	const handedOff, closed = "+" + EventConversationHandedOff, "+" + EventConversationClosed
	want := map[Trigger][]string{ //      open, waiting, handed_off, closed
		VisitorAsks:        {"waiting " + handedOff, "waiting", "handed_off", "refused"},
		HandOff:            {"waiting " + handedOff, "waiting " + handedOff, "waiting " + handedOff, "refused"},
		HandOffTo:          {"handed_off " + handedOff + " =given", "handed_off " + handedOff + " =given", "handed_off " + handedOff + " =given", "refused"},
		AgentReply:         {"handed_off " + handedOff + " =author", "handed_off", "handed_off", "refused"},
		AssistantGivesUp:   {"waiting " + handedOff, "waiting", "handed_off", "closed"},
		EmailReply:         {"open", "waiting", "handed_off", "waiting " + handedOff}, // reopened
		EmailReplyAssigned: {"open", "waiting", "handed_off", "handed_off " + handedOff},
		Close:              {"closed " + closed, "closed " + closed, "closed " + closed, "closed"},
	}
	if len(want) != len(Triggers) {
		t.Fatalf("%d triggers checked, %d exist", len(want), len(Triggers))
	}
	for _, tr := range Triggers {
		for i, from := range Statuses {
			st := NextStatus(from, tr)
			got := string(st.To)
			if st.Refused {
				got = "refused"
			}
			if st.Event != "" {
				got += " +" + st.Event
			}
			switch st.Assign {
			case AssignGiven:
				got += " =given"
			case AssignWhenNobody:
				got += " =author"
			}
			if got != want[tr][i] {
				t.Errorf("%s, %s: %q, want %q", from, tr, got, want[tr][i])
			}
			if _, listed := lifecycle[tr][from]; !listed {
				t.Errorf("%s, %s: not in the table", from, tr)
			}
		}
	}
	if got := StaysIn(AgentReply); len(got) != 1 || got[0] != StatusHandedOff {
		t.Errorf("an agent reply changes nothing in %v, want [handed_off]", got)
	}
	if st := NextStatus("archived", Close); !st.Stays("archived") {
		t.Errorf("unknown status: %+v, want it to stay", st)
	}
}

// TestLifecycleTableInDocs: the table of docs/api.md (Conversations) is the
// lifecycle table, so the docs cannot drift from the code.
func TestLifecycleTableInDocs(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	table := LifecycleTable()
	if !strings.Contains(string(doc), "\n"+table+"\n") {
		t.Errorf("docs/api.md, Conversations, does not hold the lifecycle table; it should read:\n\n%s", table)
	}
}
