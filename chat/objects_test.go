package chat

import (
	"encoding/json"
	"strings"
	"testing"
)

// Every API object writes its kind without anyone setting it, and reading
// one back refuses another kind.
func TestObjectNames(t *testing.T) {
	t.Parallel()
	cases := []struct {
		v    any
		want string
	}{
		{&Conversation{}, "conversation"},
		{&Message{}, "message"},
		{&Contact{}, "contact"},
		{&Ticket{}, "ticket"},
		{&KnowledgeSource{}, "knowledge_source"},
		{&WebhookEndpoint{}, "webhook_endpoint"},
		{&WebhookAttempt{}, "webhook_delivery"},
		{&Note{}, "note"},
		{&CannedReply{}, "canned_reply"},
		{&SearchResult{}, "search_result"},
		{&TicketComment{}, "ticket_comment"},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		var got struct{ Object string }
		if err := json.Unmarshal(b, &got); err != nil || got.Object != c.want {
			t.Errorf("%T: object %q (%v), want %q", c.v, got.Object, err, c.want)
		}
		if err := json.Unmarshal(b, c.v); err != nil {
			t.Errorf("%T: reading its own JSON: %v", c.v, err)
		}
		other := strings.Replace(string(b), `"object":"`+c.want+`"`, `"object":"list"`, 1)
		if err := json.Unmarshal([]byte(other), c.v); err == nil {
			t.Errorf("%T: read an object of another kind", c.v)
		}
	}
}
