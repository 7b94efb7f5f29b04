package web_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/testenv/webenv"
)

// TestDashboardEmptyStatesAndLinks checks what a new install shows: the
// product's name on the sign-in card, empty lists that say what is missing
// instead of "None.", a conversation without a page address rendered
// without an empty link, and a rank on every button.
func TestDashboardEmptyStatesAndLinks(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	d := newDash(t, dashServer(t, e))
	if b := d.get("/app/sign-in").must(t, http.StatusOK); !strings.Contains(b, `<p class="product">chatsvc</p>`) {
		t.Errorf("the sign-in card lacks the product's name:\n%s", b)
	}
	d.signIn("agent@example.com", webenv.DashPassword)
	inbox := d.get("/app/").must(t, http.StatusOK)
	for _, want := range []string{"No conversations are waiting.", "No closed conversations yet."} {
		if !strings.Contains(inbox, want) {
			t.Errorf("the empty inbox lacks %q", want)
		}
	}
	c, _, err := e.Svc.StartConversation(context.Background(), chat.Test, app.VisitorStart{
		SiteID: e.Site, VisitorID: "vis_nopage", Body: "Written from an app, not a page"})
	if err != nil {
		t.Fatal(err)
	}
	buttons := regexp.MustCompile(`<button[^>]*>`)
	ranked := regexp.MustCompile(`class="(primary|secondary|danger)( [a-z-]+)*"`)
	for path, want := range map[string]string{
		"/app/":                      "",
		"/app/conversations/" + c.ID: "no page address",
		"/app/tickets":               "No tickets yet",
		"/app/tickets?tag=nothing":   "None match these filters",
		"/app/contacts":              "No contacts yet",
		"/app/knowledge":             "No sources yet",
		"/app/webhooks":              "No endpoints yet",
		"/app/reports":               "Nothing yet",
	} {
		b := d.get(path).must(t, http.StatusOK)
		if strings.Contains(b, "None.") || strings.Contains(b, `href=""`) || !strings.Contains(b, want) {
			t.Errorf("%s: want %q, no \"None.\" and no empty link:\n%s", path, want, b)
		}
		for _, btn := range buttons.FindAllString(b, -1) {
			if !ranked.MatchString(btn) {
				t.Errorf("%s: a button without primary, secondary or danger: %s", path, btn)
			}
		}
	}
}
