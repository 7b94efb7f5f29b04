package storage

import (
	"fmt"
	"strings"
	"testing"

	"chatsvc/chat"
)

// TestListQueriesUseIndexes checks with EXPLAIN QUERY PLAN that every list
// query, with every filter, reads through an index: no full table scan; and
// so does the look-up of an erased contact's messages.
func TestListQueriesUseIndexes(t *testing.T) {
	t.Parallel()
	db := openDB(t)
	after := &chat.Cursor{Key: 1, ID: "x"}
	ts := chat.Timestamp(5)
	type query struct {
		name string
		sql  string
		args []any
	}
	var queries []query
	add := func(name string, sql string, args []any) { queries = append(queries, query{name, sql, args}) }
	for _, pg := range []Page{{Limit: 21}, {Limit: 21, After: after}} {
		for _, f := range []ConversationFilter{{}, {Status: "open"}, {SiteID: "site_x"}, {ContactID: "ctc_x"}, {Status: "open", SiteID: "site_x"}} {
			f.Mode, f.Page = chat.Test, pg
			s, a := f.sql()
			add(fmt.Sprintf("conversations %+v", f), s, a)
		}
		for _, f := range []TicketFilter{{}, {Status: "open"}, {Priority: "high"}, {ContactID: "ctc_x"}, {Tag: "vip"},
			{CreatedAfter: &ts}, {CreatedBefore: &ts}, {Status: "open", Priority: "low", Tag: "vip"}} {
			f.Mode, f.Page = chat.Test, pg
			s, a := f.sql()
			add(fmt.Sprintf("tickets %+v", f), s, a)
		}
		for _, f := range []ContactFilter{{}, {EmailNorm: "a@example.com"}, {ExternalID: "u1"}} {
			f.Mode, f.Page = chat.Test, pg
			s, a := f.sql()
			add(fmt.Sprintf("contacts %+v", f), s, a)
		}
		where, tail, args := keyset("created_at", false, pg, []string{"conversation_id = ?"}, []any{"conv_x"})
		add("messages", `SELECT `+messageCols+` FROM messages`+where+tail, args)
		// The lists of the other resources, built as their methods build them.
		for _, typ := range []string{"", "ticket.created"} {
			conds, args := equal(chat.Test, "type", typ)
			where, tail, args := keyset("seq", true, pg, conds, args)
			add("events type="+typ, `SELECT `+eventCols+` FROM events`+where+tail, args)
		}
		conds, args := equal(chat.Test)
		where, tail, args = keyset("created_at", true, pg, conds, args)
		add("knowledge sources", `SELECT `+sourceCols+` FROM knowledge_sources`+where+tail, args)
		add("webhook endpoints", `SELECT `+endpointCols+` FROM webhook_endpoints`+where+tail, args)
		for _, event := range []string{"", "evt_x"} {
			conds, args := []string{"endpoint_id = ?"}, []any{"whe_x"}
			if event != "" {
				conds, args = append(conds, "event_id = ?"), append(args, event)
			}
			where, tail, args := keyset("created_at", true, pg, conds, args)
			add("webhook attempts event="+event, `SELECT `+attemptCols+` FROM webhook_attempts`+where+tail, args)
		}
	}
	add("forget a contact's messages", forgetAuthorSQL, []any{"ctc_x"})
	for _, qu := range queries {
		plan := queryPlan(t, db, qu.sql, qu.args...)
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN ") && !strings.Contains(step, "USING") {
				t.Errorf("%s: full table scan: %s", qu.name, strings.Join(plan, " | "))
			}
			if strings.Contains(step, "USE TEMP B-TREE FOR ORDER BY") {
				t.Errorf("%s: sorts instead of walking an index in order: %s", qu.name, strings.Join(plan, " | "))
			}
		}
	}
}

// queryPlan returns the steps of EXPLAIN QUERY PLAN for query.
func queryPlan(t *testing.T, db *DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.read.Query("EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, query)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return plan
}

// TestQueuesAndLimitsUseTheirIndexes checks with EXPLAIN QUERY PLAN the
// index each worker's queue and each abuse limit reads, since a partial
// index serves only the queries that name its condition as it is written.
func TestQueuesAndLimitsUseTheirIndexes(t *testing.T) {
	t.Parallel()
	db := openDB(t)
	list, listArgs := ConversationFilter{Mode: chat.Test, Page: Page{Limit: 21}}.sql()
	for _, c := range []struct {
		name, sql, index string
		args             []any
	}{
		{"due e-mails", dueMailsSQL, "outbox_due", []any{chat.MailPending, 5, 20}},
		{"confirmations in the last hour", confirmationsAfterSQL, "outbox_confirmations_recent", []any{5}},
		{"confirmations to an address", confirmationsToAfterSQL, "outbox_confirmations", []any{"a@example.com", 5}},
		{"due waiting alerts", dueWaitingAlertsSQL, "waiting_alerts_due", []any{chat.AlertPending, 5, 20}},
		{"conversations, no filter", list, "conversations_report", listArgs},
	} {
		plan := strings.Join(queryPlan(t, db, c.sql, c.args...), " | ")
		if !strings.Contains(plan, "INDEX "+c.index+" ") || strings.Contains(plan, "TEMP B-TREE FOR ORDER BY") {
			t.Errorf("%s: %s, want a walk of %s", c.name, plan, c.index)
		}
	}
}
