package webenv

import (
	"testing"
	"time"
)

// ReportFixture writes, on one day, the conversations whose figures are
// worked out by hand in the web package's TestReportSummary: one the
// assistant answered alone and closed after 2 min (rated 5), one handed off
// after a minute, answered 90 s later and closed 10 min after that (rated
// 2: resolved in 750 s from its creation), one handed off and never
// answered; and a ticket created and solved. It returns the period that
// holds them.
func ReportFixture(t *testing.T, e *Env) (from, to string) {
	e.Clock.SetStep(0)
	start := e.Clock.Now()
	alone := e.Session(true)
	convAlone := e.Say(alone, "How long do refunds take?")["message"].(map[string]any)["conversation_id"].(string)
	e.Clock.Advance(2 * time.Minute)
	e.Test("POST", "/v1/conversations/"+convAlone+"/close", nil).OK(t, 200)
	e.WidgetDo("POST", "/widget/v1/rating", alone, map[string]any{"score": 5}).OK(t, 200)

	answered := e.Session(true)
	convAnswered := e.Say(answered, "My parcel is broken")["message"].(map[string]any)["conversation_id"].(string)
	e.Clock.Advance(time.Minute) // the assistant's time before the hand-off does not count
	e.WidgetDo("POST", "/widget/v1/handoff", answered, nil).OK(t, 200)
	e.Clock.Advance(90 * time.Second)
	e.Test("POST", "/v1/conversations/"+convAnswered+"/messages", map[string]any{"body": "Sorry to hear it, a new one is on its way.",
		"author_id": e.Member}).OK(t, 201)
	e.Clock.Advance(10 * time.Minute)
	e.Test("POST", "/v1/conversations/"+convAnswered+"/close", nil).OK(t, 200)
	e.WidgetDo("POST", "/widget/v1/rating", answered, map[string]any{"score": 2}).OK(t, 200)

	waiting := e.Session(true)
	e.Say(waiting, "Can I pay by invoice?")
	e.WidgetDo("POST", "/widget/v1/handoff", waiting, nil).OK(t, 200)

	tk := e.Test("POST", "/v1/tickets", map[string]any{"subject": "Broken parcel", "contact_id": e.Contact("a@example.com")}).OK(t, 201)
	e.Test("PATCH", "/v1/tickets/"+tk["id"].(string), map[string]any{"status": "solved"}).OK(t, 200)
	e.Clock.Advance(time.Minute)
	return start.Format(time.RFC3339), e.Clock.Now().Format(time.RFC3339)
}
