package web_test

import (
	"testing"
)

// ask posts a visitor question and returns the assistant's reply id and the conversation id.
func ask(e *env, token, text string) (replyID, convID string) {
	e.t.Helper()
	b := e.say(token, text)
	reply, ok := b["reply"].(map[string]any)
	if !ok {
		e.t.Fatalf("no reply to %q: %v", text, b)
	}
	return reply["id"].(string), b["message"].(map[string]any)["conversation_id"].(string)
}

func TestUnansweredQuestions(t *testing.T) {
	t.Parallel()
	e := newWidgetEnv(t, widgetOpts{})
	first, second, third := e.session(true), e.session(true), e.session(true)
	ask(e, first, "Do you sell gift cards?")
	refundsReply, refundsConv := ask(e, second, "How long do refunds take?")
	_, giftConv := ask(e, third, "  do you sell GIFT cards? ") // shown without its spaces

	// A helpful answer is no gap; an unhelpful one is, until the visitor changes their mind.
	feedback := func(tok, id string, helpful any) resp {
		return e.wdo("POST", "/widget/v1/messages/"+id+"/feedback", tok, map[string]any{"helpful": helpful})
	}
	if b := feedback(second, refundsReply, false).ok(t, 200); b["helpful"] != false || b["message_id"] != refundsReply {
		t.Fatalf("feedback %v", b)
	}
	list := e.test("GET", "/v1/reports/unanswered", nil).ok(t, 200)["data"].([]any)
	if len(list) != 2 {
		t.Fatalf("unanswered %v", list)
	}
	gift, refunds := list[0].(map[string]any), list[1].(map[string]any)
	if gift["count"] != 2.0 || gift["question"] != "do you sell GIFT cards?" || gift["conversation_id"] != giftConv {
		t.Errorf("most asked %v", gift)
	}
	if refunds["count"] != 1.0 || refunds["question"] != "How long do refunds take?" || refunds["conversation_id"] != refundsConv {
		t.Errorf("unhelpful %v", refunds)
	}
	page := e.test("GET", "/v1/reports/unanswered?limit=1", nil).ok(t, 200)
	next := e.test("GET", "/v1/reports/unanswered?limit=1&cursor="+page["next_cursor"].(string), nil).ok(t, 200)
	if page["has_more"] != true || next["has_more"] != false || next["data"].([]any)[0].(map[string]any)["question"] != refunds["question"] {
		t.Errorf("pages %v then %v", page, next)
	}

	feedback(second, refundsReply, true).ok(t, 200)
	if list := e.test("GET", "/v1/reports/unanswered", nil).ok(t, 200)["data"].([]any); len(list) != 1 {
		t.Errorf("after helpful: %v", list)
	}
	if list := e.live("GET", "/v1/reports/unanswered", nil).ok(t, 200)["data"].([]any); len(list) != 0 {
		t.Errorf("live sees test gaps: %v", list)
	}
}

func TestReplyFeedbackRefusals(t *testing.T) {
	t.Parallel()
	e := newWidgetEnv(t, widgetOpts{})
	mine, other := e.session(true), e.session(true)
	replyID, _ := ask(e, mine, "How long do refunds take?")
	question := e.wdo("GET", "/widget/v1/messages", mine, nil).ok(t, 200)["data"].([]any)[0].(map[string]any)["id"].(string)
	post := func(tok, id string, body any) resp {
		return e.wdo("POST", "/widget/v1/messages/"+id+"/feedback", tok, body)
	}
	post(mine, replyID, map[string]any{}).fails(t, 400, "parameter_missing", "helpful")
	post(mine, replyID, map[string]any{"helpful": "yes"}).fails(t, 400, "parameter_invalid", "helpful")
	post(mine, replyID, map[string]any{"helpful": true, "why": "x"}).fails(t, 400, "parameter_unknown", "why")
	post(other, replyID, map[string]any{"helpful": true}).fails(t, 404, "resource_missing", "id")
	post(mine, question, map[string]any{"helpful": true}).fails(t, 404, "resource_missing", "id")
	post("", replyID, map[string]any{"helpful": true}).fails(t, 401, "visitor_token_missing", "")
}
