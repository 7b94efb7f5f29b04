package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"chatsvc/chat"
	"chatsvc/testenv/webenv"
)

func TestContactExportHoldsEverythingAboutThePerson(t *testing.T) {
	t.Parallel()
	e := attEnv(t, 1000)
	fs := newFileServer(t, 1000)
	ctc := e.Test("POST", "/v1/contacts", map[string]any{"email": "ada@example.com", "name": "Ada Lovelace"}).OK(t, 201)["id"].(string)
	other := e.Test("POST", "/v1/contacts", map[string]any{"email": "grace@example.com"}).OK(t, 201)["id"].(string)

	conv := cvStart(t, e, chat.Test, e.Site, ctc, "Hello, I need a refund")
	e.Test("POST", cvPath(conv, "/handoff"), map[string]any{"note": "Refund over the limit"}).OK(t, 200)
	e.Test("POST", cvPath(conv, "/messages"), map[string]any{"body": "Your invoice", "author_id": e.Member,
		"attachments": []any{map[string]any{"url": fs.URL + "/download", "name": "invoice.pdf"}}}).OK(t, 201)
	// A conversation she had before leaving her address, which her ticket came from.
	anon := cvStart(t, e, chat.Test, e.Site, "", "Hi, not signed in")
	tkt := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Refund", "contact_id": ctc,
		"conversation_id": anon}).OK(t, 201)["id"].(string)
	// Someone else's conversation and ticket are no part of it.
	cvStart(t, e, chat.Test, e.Site, other, "Grace here")
	e.Test("POST", "/v1/tickets", map[string]any{"subject": "Grace's", "contact_id": other}).OK(t, 201)

	x := e.Test("GET", "/v1/contacts/"+ctc+"/export", nil).OK(t, 200)
	cvEqual(t, "object", x["object"], "contact_export")
	cvEqual(t, "contact", x["contact"].(map[string]any)["email"], "ada@example.com")
	convs := x["conversations"].([]any)
	if len(convs) != 2 {
		t.Fatalf("%d conversations, want hers and the one her ticket came from: %v", len(convs), convs)
	}
	first := convs[0].(map[string]any)
	cvEqual(t, "conversation", first["conversation"].(map[string]any)["id"], conv)
	msgs := first["messages"].([]any)
	if len(msgs) != 2 || msgs[0].(map[string]any)["body"] != "Hello, I need a refund" {
		t.Fatalf("messages: %v", msgs)
	}
	att := attachmentsOf(t, msgs[1].(map[string]any))[0]
	if res := fetch(e, att["url"].(string)); res.StatusCode != 200 {
		t.Errorf("the exported attachment does not download: %d", res.StatusCode)
	} else {
		res.Body.Close()
	}
	notes := first["notes"].([]any)
	if len(notes) != 1 || notes[0].(map[string]any)["body"] != "Refund over the limit" || notes[0].(map[string]any)["object"] != "note" {
		t.Errorf("notes: %v", notes)
	}
	cvEqual(t, "second conversation", convs[1].(map[string]any)["conversation"].(map[string]any)["id"], anon)
	tickets := x["tickets"].([]any)
	if len(tickets) != 1 {
		t.Fatalf("tickets: %v", tickets)
	}
	cvEqual(t, "ticket", tickets[0].(map[string]any)["ticket"].(map[string]any)["id"], tkt)
	cvEqual(t, "comments", tickets[0].(map[string]any)["comments"], []any{})

	// A contact of the other mode, or none, is not found; unknown query
	// parameters are refused as everywhere.
	e.Live("GET", "/v1/contacts/"+ctc+"/export", nil).Fails(t, 404, "resource_missing", "id")
	e.Test("GET", "/v1/contacts/ctc_nope/export", nil).Fails(t, 404, "resource_missing", "id")
	e.Test("GET", "/v1/contacts/"+ctc+"/export?x=1", nil).Fails(t, 400, "parameter_unknown", "x")
	// An erased contact has nothing left to export.
	e.Test("DELETE", "/v1/contacts/"+ctc, nil).OK(t, 200)
	e.Test("GET", "/v1/contacts/"+ctc+"/export", nil).Fails(t, 404, "resource_missing", "id")
}

func TestDashboardContactExportDownload(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	ctc := e.Contact("ana@example.com")
	// Signed out, the export is not served.
	if r := d.get("/app/contacts/" + ctc + "/export"); r.status == http.StatusOK {
		t.Fatal("the export was served without a session")
	}
	d.signIn("agent@example.com", webenv.DashPassword)
	if page := d.get("/app/contacts/"+ctc).must(t, http.StatusOK); !strings.Contains(page, `href="/app/contacts/`+ctc+`/export"`) {
		t.Error("the contact page has no export link")
	}
	r := d.get("/app/contacts/" + ctc + "/export")
	var x struct {
		Object  string
		Contact struct{ Email string }
	}
	if err := json.Unmarshal([]byte(r.must(t, http.StatusOK)), &x); err != nil || x.Object != "contact_export" || x.Contact.Email != "ana@example.com" {
		t.Fatalf("export: %+v, %v", x, err)
	}
	if cd := r.header.Get("Content-Disposition"); cd != `attachment; filename="`+ctc+`.json"` {
		t.Errorf("Content-Disposition %q", cd)
	}
}
