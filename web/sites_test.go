package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/testenv/webenv"
)

func TestSites(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	list := e.Test("GET", "/v1/sites", nil).OK(t, 200)
	if data := list["data"].([]any); len(data) != 1 || data[0].(map[string]any)["id"] != e.Site {
		t.Fatalf("sites %v", list)
	}
	s := e.Live("GET", "/v1/sites/"+e.Site, nil).OK(t, 200) // shared by both modes
	if s["object"] != "site" || s["business_hours"] != nil || s["identity_verification"] != false ||
		s["widget"].(map[string]any)["locale"] != "en" || s["widget"].(map[string]any)["position"] != "right" {
		t.Fatalf("a new site: %v", s)
	}
	e.Test("GET", "/v1/sites/site_nope", nil).Fails(t, 404, "resource_missing", "id")

	up := e.Test("PATCH", "/v1/sites/"+e.Site, map[string]any{"name": "Shop", "domains": []string{"https://Shop.Example.com/", "example.org"},
		"business_hours": map[string]any{"timezone": "America/New_York",
			"weekly":   map[string]any{"mon": [][]string{{"09:00", "12:00"}, {"13:00", "17:30"}}, "sat": [][]string{}},
			"holidays": []string{"2026-12-25"}},
		"widget": map[string]any{"color": "#FF8800", "locale": "de", "require_email": true}}).OK(t, 200)
	w := up["widget"].(map[string]any)
	bh := up["business_hours"].(map[string]any)
	if up["name"] != "Shop" || up["domains"].([]any)[0] != "shop.example.com" || w["color"] != "#FF8800" ||
		w["locale"] != "de" || w["require_email"] != true || w["position"] != "right" ||
		bh["timezone"] != "America/New_York" || len(bh["weekly"].(map[string]any)["mon"].([]any)) != 2 ||
		len(bh["weekly"].(map[string]any)["tue"].([]any)) != 0 {
		t.Fatalf("updated site %v", up)
	}
	// widget changes only what it names; business_hours null means always open.
	up = e.Test("PATCH", "/v1/sites/"+e.Site, map[string]any{"widget": map[string]any{"position": "left"}, "business_hours": nil}).OK(t, 200)
	if w := up["widget"].(map[string]any); w["position"] != "left" || w["color"] != "#FF8800" || up["business_hours"] != nil {
		t.Fatalf("second update %v", up)
	}

	// An identity secret changes identity_verification, and so updated_at.
	e.Clock.Advance(time.Minute)
	if _, err := e.Svc.SetIdentitySecret(context.Background(), e.Site, false); err != nil {
		t.Fatal(err)
	}
	if got := e.Test("GET", "/v1/sites/"+e.Site, nil).OK(t, 200); got["identity_verification"] != true ||
		got["updated_at"].(string) <= up["updated_at"].(string) {
		t.Fatalf("after an identity secret: %v (before: updated_at %v)", got, up["updated_at"])
	}

	// Any language may be named; the widget shows texts it has none in in English.
	for in, want := range map[string]string{"it": "it", "pt_br": "pt-BR", "de-AT": "de-AT"} {
		got := e.Test("PATCH", "/v1/sites/"+e.Site, map[string]any{"widget": map[string]any{"locale": in}}).OK(t, 200)
		if l := got["widget"].(map[string]any)["locale"]; l != want {
			t.Errorf("locale %q stored as %v, want %s", in, l, want)
		}
	}

	hours := func(h map[string]any) map[string]any { return map[string]any{"business_hours": h} }
	for _, c := range []struct {
		name        string
		body        map[string]any
		code, param string
	}{
		{"colour", map[string]any{"widget": map[string]any{"color": "orange"}}, "parameter_invalid", "widget.color"},
		{"position", map[string]any{"widget": map[string]any{"position": "top"}}, "parameter_invalid", "widget.position"},
		{"locale", map[string]any{"widget": map[string]any{"locale": "xx"}}, "parameter_invalid", "widget.locale"},
		{"locale a word", map[string]any{"widget": map[string]any{"locale": "english"}}, "parameter_invalid", "widget.locale"},
		{"locale empty", map[string]any{"widget": map[string]any{"locale": ""}}, "parameter_invalid", "widget.locale"},
		{"widget field", map[string]any{"widget": map[string]any{"font": "serif"}}, "parameter_unknown", "widget.font"},
		{"require_email", map[string]any{"widget": map[string]any{"require_email": "yes"}}, "parameter_invalid", "widget.require_email"},
		{"domain", map[string]any{"domains": []string{"example.com", "not a domain"}}, "parameter_invalid", "domains.1"},
		{"wildcard domain", map[string]any{"domains": []string{"*.evil.com"}}, "parameter_invalid", "domains.0"},
		{"top-level domain", map[string]any{"domains": []string{".com"}}, "parameter_invalid", "domains.0"},
		{"IP address", map[string]any{"domains": []string{"127.0.0.1"}}, "parameter_invalid", "domains.0"},
		{"IPv6 address", map[string]any{"domains": []string{"[::1]"}}, "parameter_invalid", "domains.0"},
		{"empty label", map[string]any{"domains": []string{"shop..example.com"}}, "parameter_invalid", "domains.0"},
		{"hyphen label", map[string]any{"domains": []string{"-shop.example.com"}}, "parameter_invalid", "domains.0"},
		{"numbers", map[string]any{"domains": []string{"10.0.0.1:8080"}}, "parameter_invalid", "domains.0"},
		{"empty name", map[string]any{"name": " "}, "parameter_invalid", "name"},
		{"no time zone", hours(map[string]any{"weekly": map[string]any{}}), "parameter_missing", "business_hours.timezone"},
		{"time zone", hours(map[string]any{"timezone": "Mars/Olympus"}), "parameter_invalid", "business_hours.timezone"},
		{"time", hours(map[string]any{"timezone": "UTC", "weekly": map[string]any{"mon": [][]string{{"9am", "17:00"}}}}), "parameter_invalid", "business_hours.weekly.mon.0"},
		{"a signed time", hours(map[string]any{"timezone": "UTC", "weekly": map[string]any{"mon": [][]string{{"+9:00", "17:00"}}}}), "parameter_invalid", "business_hours.weekly.mon.0"},
		{"a spaced time", hours(map[string]any{"timezone": "UTC", "weekly": map[string]any{"mon": [][]string{{"09:00", "17:0 "}}}}), "parameter_invalid", "business_hours.weekly.mon.0"},
		{"three times", hours(map[string]any{"timezone": "UTC", "weekly": map[string]any{"tue": [][]string{{"09:00", "10:00", "11:00"}}}}), "parameter_invalid", "business_hours.weekly.tue.0"},
		{"one time", hours(map[string]any{"timezone": "UTC", "weekly": map[string]any{"tue": [][]string{{"09:00"}}}}), "parameter_invalid", "business_hours.weekly.tue.0"},
		{"backwards", hours(map[string]any{"timezone": "UTC", "weekly": map[string]any{"tue": [][]string{{"09:00", "12:00"}, {"11:00", "10:00"}}}}), "parameter_invalid", "business_hours.weekly.tue.1"},
		{"overlap", hours(map[string]any{"timezone": "UTC", "weekly": map[string]any{"tue": [][]string{{"09:00", "12:00"}, {"11:00", "13:00"}}}}), "parameter_invalid", "business_hours.weekly.tue.1"},
		{"day", hours(map[string]any{"timezone": "UTC", "weekly": map[string]any{"monday": [][]string{}}}), "parameter_unknown", "business_hours.weekly.monday"},
		{"holiday", hours(map[string]any{"timezone": "UTC", "holidays": []string{"2026-12-25", "25/12/2026"}}), "parameter_invalid", "business_hours.holidays.1"},
		{"hours field", hours(map[string]any{"timezone": "UTC", "open": true}), "parameter_unknown", "business_hours.open"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.Test("PATCH", "/v1/sites/"+e.Site, c.body).Fails(t, 400, c.code, c.param)
		})
	}
}

// The widget learns at session start whether the team is in, and how to look.
func TestWidgetSessionCarriesTheSite(t *testing.T) {
	t.Parallel()
	e := webenv.New(t) // the clock stands at Thursday 2026-10-01 12:00 UTC
	start := func() map[string]any {
		return e.WidgetDo("POST", "/widget/v1/sessions", "", map[string]any{"site_id": e.Site, "page_url": "https://example.com/",
			"test": true}).OK(t, 200)["site"].(map[string]any)
	}
	if s := start(); s["availability"] != "online" || s["next_open_at"] != nil || s["locale"] != "en" || s["require_email"] != false {
		t.Fatalf("always open: %v", s)
	}
	e.Test("PATCH", "/v1/sites/"+e.Site, map[string]any{"widget": map[string]any{"greeting": "Moin!", "locale": "de"},
		"business_hours": map[string]any{"timezone": "Europe/Berlin", "weekly": map[string]any{"mon": [][]string{{"09:00", "17:00"}}}}}).OK(t, 200)
	s := start()
	if s["availability"] != "offline" || s["next_open_at"] != "2026-10-05T07:00:00.000Z" || s["greeting"] != "Moin!" ||
		s["locale"] != "de" || s["offline_message"] == "" {
		t.Fatalf("offline: %v", s)
	}
}

// Outside business hours the assistant still answers, and a hand-off says
// when the team is back and that the answer comes by e-mail.
func TestWidgetOfflineHandOff(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{}) // Thursday 2026-10-01 12:00 UTC
	e.Test("PATCH", "/v1/sites/"+e.Site, map[string]any{"business_hours": map[string]any{"timezone": "Europe/Berlin",
		"weekly": map[string]any{"mon": [][]string{{"09:00", "17:00"}}}}}).OK(t, 200)
	tok := e.Session(false)
	if reply := e.Say(tok, "How long does a refund take?")["reply"]; reply == nil || len(reply.(map[string]any)["sources"].([]any)) == 0 {
		t.Fatalf("the assistant did not answer while the team is away: %v", reply)
	}
	reply := e.Say(tok, "I want to talk to a person")["reply"].(map[string]any)
	if body := reply["body"].(string); !strings.Contains(body, "back Monday 5 October at 09:00 (CEST)") ||
		!strings.Contains(body, "please leave your e-mail address") {
		t.Fatalf("offline hand-off reply %q", body)
	}
	// With an address known, the button's hand-off names it.
	tok2 := e.Session(false)
	e.Say(tok2, "Hello")
	e.WidgetDo("POST", "/widget/v1/identify", tok2, map[string]any{"email": "ada@example.com"}).OK(t, 200)
	if c := e.WidgetDo("POST", "/widget/v1/handoff", tok2, nil).OK(t, 200); c["status"] != "waiting" {
		t.Fatalf("hand-off %v", c)
	}
	msgs := e.WidgetDo("GET", "/widget/v1/messages", tok2, nil).OK(t, 200)["data"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)["body"].(string)
	if !strings.Contains(last, "by e-mail at ada@example.com") {
		t.Fatalf("last message %q", last)
	}
}

// With require_email, the first message waits for an e-mail address.
func TestWidgetPreChatEmail(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	e.Test("PATCH", "/v1/sites/"+e.Site, map[string]any{"widget": map[string]any{"require_email": true}}).OK(t, 200)
	tok := e.Session(false)
	e.WidgetDo("POST", "/widget/v1/messages", tok, map[string]any{"body": "Hi"}).Fails(t, 400, "parameter_missing", "email")
	e.WidgetDo("POST", "/widget/v1/identify", tok, map[string]any{"email": "bo@example.com"}).OK(t, 200)
	e.Say(tok, "Hi")
}

// A visitor rates a closed conversation; the rating shows on the
// conversation, fires conversation.rated and filters the list.
func TestWidgetRating(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	tok := e.Session(true)
	e.WidgetDo("POST", "/widget/v1/rating", tok, map[string]any{"score": 5}).Fails(t, 404, "resource_missing", "")
	conv := e.Say(tok, "Where is my parcel?")["message"].(map[string]any)["conversation_id"].(string)
	e.WidgetDo("POST", "/widget/v1/rating", tok, map[string]any{"score": 5}).Fails(t, 409, "conversation_open", "")
	e.Test("POST", "/v1/conversations/"+conv+"/close", nil).OK(t, 200)
	for _, c := range []struct {
		body        map[string]any
		code, param string
	}{
		{map[string]any{}, "parameter_missing", "score"},
		{map[string]any{"score": 0}, "parameter_invalid", "score"},
		{map[string]any{"score": 6}, "parameter_invalid", "score"},
		{map[string]any{"score": 4.5}, "parameter_invalid", "score"},
		{map[string]any{"score": 4, "comment": strings.Repeat("x", 1001)}, "parameter_invalid", "comment"},
		{map[string]any{"score": 4, "stars": 4}, "parameter_unknown", "stars"},
	} {
		e.WidgetDo("POST", "/widget/v1/rating", tok, c.body).Fails(t, 400, c.code, c.param)
	}
	e.Test("GET", "/v1/conversations?rated=maybe", nil).Fails(t, 400, "parameter_invalid", "rated")
	if got := e.All(e.TestKey, "/v1/conversations?rated=false", 10); len(got) != 1 {
		t.Fatalf("unrated conversations %v", got)
	}
	r := e.WidgetDo("POST", "/widget/v1/rating", tok, map[string]any{"score": 2, "comment": "Slow."}).OK(t, 200)
	if rt := r["rating"].(map[string]any); rt["score"] != float64(2) || rt["comment"] != "Slow." || rt["rated_at"] == nil {
		t.Fatalf("rating %v", r)
	}
	// Rating again replaces the first rating.
	e.WidgetDo("POST", "/widget/v1/rating", tok, map[string]any{"score": 5}).OK(t, 200)
	c := e.Test("GET", "/v1/conversations/"+conv, nil).OK(t, 200)
	if rt := c["rating"].(map[string]any); rt["score"] != float64(5) || rt["comment"] != nil {
		t.Fatalf("conversation rating %v", c["rating"])
	}
	if got := e.All(e.TestKey, "/v1/conversations?rated=true", 10); len(got) != 1 || got[0] != conv {
		t.Fatalf("rated conversations %v", got)
	}
	if n := strings.Count(strings.Join(e.Events(conv), ","), "conversation.rated"); n != 2 {
		t.Fatalf("conversation.rated recorded %d times: %v", n, e.Events(conv))
	}
}

// One visitor rates at most app.VisitorRatingsPerHour times an hour: each
// rating is an event every webhook endpoint receives.
func TestWidgetRatingsAreLimited(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	tok := e.Session(true)
	conv := e.Say(tok, "Where is my parcel?")["message"].(map[string]any)["conversation_id"].(string)
	e.Test("POST", "/v1/conversations/"+conv+"/close", nil).OK(t, 200)
	for i := range app.VisitorRatingsPerHour {
		e.WidgetDo("POST", "/widget/v1/rating", tok, map[string]any{"score": 1 + i%5}).OK(t, 200)
	}
	r := e.WidgetDo("POST", "/widget/v1/rating", tok, map[string]any{"score": 5})
	r.Fails(t, 429, "rate_limited", "")
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	if n := strings.Count(strings.Join(e.Events(conv), ","), "conversation.rated"); n != app.VisitorRatingsPerHour {
		t.Fatalf("conversation.rated recorded %d times", n)
	}
}

// A domain is stored as browsers send it in Origin: an internationalised
// name in its ASCII form, so its pages match.
func TestSiteDomainsAreStoredAsBrowsersSendThem(t *testing.T) {
	e := webenv.New(t)
	up := e.Test("PATCH", "/v1/sites/"+e.Site, map[string]any{"domains": []string{"https://Bücher.Example/", "localhost"}}).OK(t, 200)
	if d := up["domains"].([]any); d[0] != "xn--bcher-kva.example" || d[1] != "localhost" {
		t.Fatalf("domains %v", d)
	}
}

// On a site with domains, the page a visitor reports (page_url, shown to
// the team and linked from e-mails) must be on one of them.
func TestPageURLMustBeOnTheSitesDomains(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	e.Test("PATCH", "/v1/sites/"+e.Site, map[string]any{"domains": []string{"shop.example"}}).OK(t, 200)
	start := func(page string) webenv.Resp {
		return e.WidgetDo("POST", "/widget/v1/sessions", "", map[string]any{"site_id": e.Site, "page_url": page, "test": true})
	}
	start("https://evil.example/win").Fails(t, 400, "parameter_invalid", "page_url")
	start("https://shop.example.evil.example/").Fails(t, 400, "parameter_invalid", "page_url")
	tok := start("https://www.shop.example/help").OK(t, 200)["visitor_token"].(string)
	e.WidgetDo("POST", "/widget/v1/messages", tok, map[string]any{"body": "Hi", "page_url": "https://evil.example/x"}).
		Fails(t, 400, "parameter_invalid", "page_url")
	e.WidgetDo("POST", "/widget/v1/messages", tok, map[string]any{"body": "Hi", "page_url": "https://shop.example/cart"}).OK(t, 201)
}
