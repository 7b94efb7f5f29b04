package openapicheck_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"chatsvc/docs/openapicheck"
)

// recorder is a T that keeps what the checker reports.
type recorder struct{ errs []string }

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

const ticket = `{"id":"tkt_1","object":"ticket","number":1,"subject":"Refund","description":null,
"status":"open","priority":"normal","contact_id":"ctc_1","conversation_id":null,"assignee_id":null,
"tags":[],"metadata":{},"created_at":"2026-10-01T12:00:00.000Z","updated_at":"2026-10-01T12:00:00.000Z","solved_at":null}`

const emptyList = `{"object":"list","data":[],"has_more":false,"next_cursor":null}`

const source = `{"id":"src_1","object":"knowledge_source","type":"text","name":"FAQ","url":null,"status":"pending",
"page_count":0,"last_synced_at":null,"failure_reason":null,"language":null,"politeness":"polite","created_at":"2026-10-01T12:00:00.000Z"}`

const contact = `{"id":"ctc_1","object":"contact","email":null,"name":"Ada","phone":null,"external_id":null,
"attributes":{},"last_seen_at":null,"created_at":"2026-10-01T12:00:00.000Z","updated_at":"2026-10-01T12:00:00.000Z"}`

const apiErr = `{"error":{"type":"invalid_request_error","message":"No such ticket.","code":"resource_missing","param":null,"request_id":"req_1"}}`

// The checker passes responses the document describes and reports the
// others: wrong fields, undocumented statuses, missing headers, bodies of
// unknown routes that are not errors.
func TestChecker(t *testing.T) {
	cases := []struct {
		name, method, path string
		status             int
		body               string
		noRequestID        bool
		reqBody            string
		wantErr            string // "" when the response is valid
	}{
		{"valid ticket", "GET", "/v1/tickets/tkt_1", 200, ticket, false, "", ""},
		{"valid error", "GET", "/v1/tickets/tkt_x", 404, apiErr, false, "", ""},
		{"valid unknown route", "GET", "/v1/nothing", 404, apiErr, false, "", ""},
		{"extra field", "GET", "/v1/tickets/tkt_1", 200, strings.Replace(ticket, `"tags":[]`, `"tags":[],"secret":"x"`, 1), false, "", "secret"},
		{"missing field", "GET", "/v1/tickets/tkt_1", 200, strings.Replace(ticket, `"solved_at":null`, `"x_solved":null`, 1), false, "", "solved_at"},
		{"wrong enum", "GET", "/v1/tickets/tkt_1", 200, strings.Replace(ticket, `"open"`, `"reopened"`, 1), false, "", "reopened"},
		{"null where not nullable", "GET", "/v1/tickets/tkt_1", 200, strings.Replace(ticket, `"Refund"`, `null`, 1), false, "", "subject"},
		{"undocumented status", "GET", "/v1/tickets/tkt_1", 418, apiErr, false, "", "status is not supported"},
		{"error shape", "GET", "/v1/tickets/tkt_x", 404, `{"message":"no"}`, false, "", "error"},
		{"no Request-Id", "GET", "/v1/tickets/tkt_1", 200, ticket, true, "", "Request-Id"},
		{"unknown route, not an error", "GET", "/v1/nothing", 200, ticket, false, "", "not a routing error"},
		{"outside the API is not checked", "GET", "/healthz", 200, `{}`, false, "", ""},
		{"the widget API is checked", "GET", "/widget/v1/messages", 200, `{}`, false, "", "has_more"},
		{"accepted request", "POST", "/v1/tickets", 201, ticket, false, `{"subject":"Refund","contact_id":"ctc_1"}`, ""},
		{"accepted unknown field", "POST", "/v1/tickets", 201, ticket, false, `{"subject":"Refund","bogus":1}`, "bogus"},
		{"accepted over the limit", "POST", "/v1/tickets", 201, ticket, false, `{"subject":"` + strings.Repeat("x", 201) + `"}`, "subject"},
		{"accepted bad query", "GET", "/v1/tickets?status=reopened", 200, emptyList, false, "", "status"},
		{"accepted unknown query", "GET", "/v1/tickets?colour=red", 200, emptyList, false, "", "colour"},
		{"accepted list", "GET", "/v1/tickets?status=open&limit=100", 200, emptyList, false, "", ""},
		{"accepted without contact", "POST", "/v1/tickets", 201, ticket, false, `{"subject":"Refund"}`, "missing property 'contact'"},
		{"accepted text source without content", "POST", "/v1/knowledge-sources", 201, source, false, `{"type":"text","name":"FAQ"}`, "missing property 'content'"},
		{"accepted url source with content", "POST", "/v1/knowledge-sources", 201, source, false, `{"type":"url","name":"FAQ","url":"https://example.com","content":"x"}`, "'not' failed"},
		{"accepted text source", "POST", "/v1/knowledge-sources", 201, source, false, `{"type":"text","name":"FAQ","content":"x","url":null}`, ""},
		{"accepted contact without email", "POST", "/v1/contacts", 201, contact, false, `{"name":"Ada"}`, "missing property 'email'"},
		{"refused bad request", "POST", "/v1/tickets", 400, apiErr, false, `{"subject":"Refund","bogus":1}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if !c.noRequestID {
					w.Header().Set("Request-Id", "req_1")
				}
				w.WriteHeader(c.status)
				w.Write([]byte(c.body))
			}))
			defer srv.Close()
			rec := &recorder{}
			client := &http.Client{Transport: openapicheck.New(rec, srv.URL, nil)}
			req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.reqBody))
			req.Header.Set("Authorization", "Bearer csk_test_x")
			res, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			got := strings.Join(rec.errs, "\n")
			switch {
			case c.wantErr == "" && got != "":
				t.Errorf("valid response reported: %s", got)
			case c.wantErr != "" && !strings.Contains(got, c.wantErr):
				t.Errorf("report %q does not mention %q", got, c.wantErr)
			}
		})
	}
}
