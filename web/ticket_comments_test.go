package web_test

import (
	"chatsvc/testenv/webenv"
	"slices"
	"strings"
	"testing"
)

// A public comment reaches the contact by e-mail, an internal one never
// does; both are listed oldest first and recorded as events.
func TestTicketComments(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	tkt := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Refund", "contact": map[string]any{"email": "ann@example.com"},
		"notify_contact": false}).OK(t, 201)
	id := tkt["id"].(string)
	path := "/v1/tickets/" + id + "/comments"
	pub := e.Test("POST", path, map[string]any{"body": "Your refund is on its way.", "author_id": e.Member}).OK(t, 201)
	if pub["object"] != "ticket_comment" || pub["ticket_id"] != id || pub["public"] != true || pub["via"] != "api" ||
		pub["author"].(map[string]any)["type"] != "agent" || pub["author"].(map[string]any)["name"] != "Agent Smith" {
		t.Fatalf("public comment %v", pub)
	}
	internal := e.Test("POST", "/v1/tickets/T-1/comments", map[string]any{"body": "Check the bank.", "author_id": e.Member,
		"public": false}).OK(t, 201)
	if internal["public"] != false {
		t.Fatalf("internal comment %v", internal)
	}
	quiet := e.Test("POST", path, map[string]any{"body": "Sent by post too.", "author_id": e.Member, "notify_contact": false}).OK(t, 201)
	if got := e.Mails(id); !slices.Equal(got, []string{"ticket_comment:ann@example.com"}) {
		t.Fatalf("mails %v", got)
	}
	if got := e.Events(pub["id"].(string)); !slices.Equal(got, []string{"test:ticket_comment.created"}) {
		t.Fatalf("events %v", got)
	}
	list := e.Test("GET", path+"?limit=2", nil).OK(t, 200)
	d := list["data"].([]any)
	if len(d) != 2 || d[0].(map[string]any)["id"] != pub["id"] || d[1].(map[string]any)["id"] != internal["id"] || list["has_more"] != true {
		t.Fatalf("first page %v", list)
	}
	next := e.Test("GET", path+"?cursor="+list["next_cursor"].(string), nil).OK(t, 200)
	if d := next["data"].([]any); len(d) != 1 || d[0].(map[string]any)["id"] != quiet["id"] {
		t.Fatalf("second page %v", next)
	}
	for _, c := range []struct {
		body        map[string]any
		code, param string
	}{
		{map[string]any{"author_id": e.Member}, "parameter_missing", "body"},
		{map[string]any{"body": "x"}, "parameter_missing", "author_id"},
		{map[string]any{"body": "  ", "author_id": e.Member}, "parameter_invalid", "body"},
		{map[string]any{"body": str("x", 10001), "author_id": e.Member}, "parameter_invalid", "body"},
		{map[string]any{"body": "x", "author_id": e.Member, "public": "no"}, "parameter_invalid", "public"},
		{map[string]any{"body": "x", "author_id": "mem_nope"}, "resource_missing", "author_id"},
		{map[string]any{"body": "x", "author_id": e.Member, "via": "email"}, "parameter_unknown", "via"},
	} {
		e.Test("POST", path, c.body).Fails(t, 400, c.code, c.param)
	}
	e.Test("POST", path, map[string]any{"body": str("x", 10000), "author_id": e.Member, "notify_contact": false}).OK(t, 201)
	e.Test("POST", "/v1/tickets/tkt_nope/comments", map[string]any{"body": "x", "author_id": e.Member}).Fails(t, 404, "resource_missing", "id")
	e.Live("GET", path, nil).Fails(t, 404, "resource_missing", "id")
	export := e.Test("GET", "/v1/contacts/"+tkt["contact_id"].(string)+"/export", nil).OK(t, 200)
	if cs := export["tickets"].([]any)[0].(map[string]any)["comments"].([]any); len(cs) != 4 {
		t.Fatalf("export holds %d comments", len(cs))
	}
}

// Erasing the contact scrubs the person's data from the ticket's comments
// and from the events that carried them.
func TestTicketCommentErasure(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	tkt := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Refund", "notify_contact": false,
		"contact": map[string]any{"email": "ann@example.com", "name": "Ann Lee"}}).OK(t, 201)
	id := tkt["id"].(string)
	c := e.Test("POST", "/v1/tickets/"+id+"/comments", map[string]any{"body": "Called Ann Lee at ann@example.com.",
		"author_id": e.Member, "public": false}).OK(t, 201)
	e.Test("DELETE", "/v1/contacts/"+tkt["contact_id"].(string), nil).OK(t, 200)
	got := e.Test("GET", "/v1/tickets/"+id+"/comments", nil).OK(t, 200)["data"].([]any)[0].(map[string]any)["body"].(string)
	ev := e.EventData(c["id"].(string), "ticket_comment.created")["body"].(string)
	for _, text := range []string{got, ev} {
		if strings.Contains(text, "Ann") || strings.Contains(text, "ann@example.com") {
			t.Fatalf("erased data left: %q", text)
		}
	}
}
