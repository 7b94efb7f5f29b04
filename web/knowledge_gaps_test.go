package web_test

import (
	"chatsvc/testenv/webenv"
	"testing"
)

func TestUnansweredQuestions(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	first, second, third := e.Session(true), e.Session(true), e.Session(true)
	webenv.Ask(e, first, "Do you sell gift cards?")
	refundsReply, refundsConv := webenv.Ask(e, second, "How long do refunds take?")
	_, giftConv := webenv.Ask(e, third, "  do you sell GIFT cards? ") // shown without its spaces

	// A helpful answer is no gap; an unhelpful one is, until the visitor changes their mind.
	feedback := func(tok, id string, helpful any) webenv.Resp {
		return e.WidgetDo("POST", "/widget/v1/messages/"+id+"/feedback", tok, map[string]any{"helpful": helpful})
	}
	if b := feedback(second, refundsReply, false).OK(t, 200); b["helpful"] != false || b["message_id"] != refundsReply {
		t.Fatalf("feedback %v", b)
	}
	list := e.Test("GET", "/v1/reports/unanswered", nil).OK(t, 200)["data"].([]any)
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
	page := e.Test("GET", "/v1/reports/unanswered?limit=1", nil).OK(t, 200)
	next := e.Test("GET", "/v1/reports/unanswered?limit=1&cursor="+page["next_cursor"].(string), nil).OK(t, 200)
	if page["has_more"] != true || next["has_more"] != false || next["data"].([]any)[0].(map[string]any)["question"] != refunds["question"] {
		t.Errorf("pages %v then %v", page, next)
	}

	feedback(second, refundsReply, true).OK(t, 200)
	if list := e.Test("GET", "/v1/reports/unanswered", nil).OK(t, 200)["data"].([]any); len(list) != 1 {
		t.Errorf("after helpful: %v", list)
	}
	if list := e.Live("GET", "/v1/reports/unanswered", nil).OK(t, 200)["data"].([]any); len(list) != 0 {
		t.Errorf("live sees test gaps: %v", list)
	}
}

func TestReplyFeedbackRefusals(t *testing.T) {
	t.Parallel()
	e := webenv.NewWidget(t, webenv.WidgetOptions{})
	mine, other := e.Session(true), e.Session(true)
	replyID, _ := webenv.Ask(e, mine, "How long do refunds take?")
	question := e.WidgetDo("GET", "/widget/v1/messages", mine, nil).OK(t, 200)["data"].([]any)[0].(map[string]any)["id"].(string)
	post := func(tok, id string, body any) webenv.Resp {
		return e.WidgetDo("POST", "/widget/v1/messages/"+id+"/feedback", tok, body)
	}
	post(mine, replyID, map[string]any{}).Fails(t, 400, "parameter_missing", "helpful")
	post(mine, replyID, map[string]any{"helpful": "yes"}).Fails(t, 400, "parameter_invalid", "helpful")
	post(mine, replyID, map[string]any{"helpful": true, "why": "x"}).Fails(t, 400, "parameter_unknown", "why")
	post(other, replyID, map[string]any{"helpful": true}).Fails(t, 404, "resource_missing", "id")
	post(mine, question, map[string]any{"helpful": true}).Fails(t, 404, "resource_missing", "id")
	post("", replyID, map[string]any{"helpful": true}).Fails(t, 401, "visitor_token_missing", "")
}
