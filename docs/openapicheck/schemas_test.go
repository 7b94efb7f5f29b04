package openapicheck

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// samples are bodies every schema is tried with: valid for some, invalid
// for most, each for a reason of its own (a missing field, a wrong type, an
// enum, null, a conditional requirement).
var samples = []string{
	`{}`, `null`,
	`{"id":"tkt_1","object":"ticket","number":1,"subject":"Refund","description":null,"status":"open","priority":"normal","contact_id":"ctc_1","conversation_id":null,"assignee_id":null,"tags":[],"metadata":{},"created_at":"2026-10-01T12:00:00.000Z","updated_at":"2026-10-01T12:00:00.000Z","solved_at":null}`,
	`{"id":"tkt_1","object":"ticket","number":1,"subject":"Refund","description":null,"status":"reopened","priority":"normal","contact_id":"ctc_1","conversation_id":null,"assignee_id":null,"tags":[],"metadata":{},"created_at":"2026-10-01T12:00:00.000Z","updated_at":"2026-10-01T12:00:00.000Z","solved_at":null}`,
	`{"object":"list","data":[],"has_more":false,"next_cursor":null}`,
	`{"error":{"type":"invalid_request_error","message":"No such ticket.","code":"resource_missing","param":null,"request_id":"req_1"}}`,
	`{"subject":"Refund"}`,
	`{"type":"url","name":"FAQ","url":"https://example.com","content":"x"}`,
	`{"email":"not an address"}`,
}

// The checker's validators, compiled once, give every body schema of the
// document the verdict the library gives when it compiles one per call:
// the same bodies pass and the same fail.
func TestBodyValidatorsAgreeWithTheLibrary(t *testing.T) {
	doc, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	values := make([]any, len(samples))
	for i, s := range samples {
		if values[i], err = decodeSample(s); err != nil {
			t.Fatalf("sample %d: %v", i, err)
		}
	}
	schemas, passed, failed := 0, 0, 0
	tried := map[*openapi3.Schema]bool{}
	try := func(where string, mt *openapi3.MediaType, as openapi3.SchemaValidationOption) {
		if mt == nil || mt.Schema == nil || mt.Schema.Value == nil || tried[mt.Schema.Value] {
			return
		}
		tried[mt.Schema.Value] = true
		schemas++
		for i, v := range values {
			want := mt.Schema.Value.VisitJSON(v, as, openapi3.MultiErrors(), openapi3.EnableJSONSchema2020())
			got := validators.validate(mt.Schema.Value, v, as, openapi3.MultiErrors())
			if (want == nil) != (got == nil) {
				t.Errorf("%s, sample %d: the library says %v, the checker %v", where, i, want, got)
			}
			if got == nil {
				passed++
			} else {
				failed++
			}
		}
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				try(method+" "+path+" request", op.RequestBody.Value.Content.Get("application/json"), openapi3.VisitAsRequest())
			}
			for status, res := range op.Responses.Map() {
				try(method+" "+path+" "+status, res.Value.Content.Get("application/json"), openapi3.VisitAsResponse())
			}
		}
	}
	if schemas < 50 || passed == 0 || failed == 0 {
		t.Fatalf("%d schemas tried, %d bodies passed, %d failed: the comparison proves little", schemas, passed, failed)
	}
	t.Logf("%d schemas, %d bodies passed and %d failed alike", schemas, passed, failed)
}

// decodeSample decodes a JSON body as the library does, numbers kept as
// written.
func decodeSample(s string) (any, error) {
	var v any
	d := json.NewDecoder(bytes.NewReader([]byte(s)))
	d.UseNumber()
	return v, d.Decode(&v)
}

// BenchmarkValidateBody is the cost of checking one ticket against its
// schema, the validator compiled once, against the library's call that
// compiles one each time.
func BenchmarkValidateBody(b *testing.B) {
	doc, err := Load()
	if err != nil {
		b.Fatal(err)
	}
	schema := doc.Paths.Value("/tickets/{id}").Get.Responses.Status(200).Value.Content.Get("application/json").Schema.Value
	ticket, err := decodeSample(samples[2])
	if err != nil {
		b.Fatal(err)
	}
	b.Run("compiled once", func(b *testing.B) {
		for b.Loop() {
			if err := validators.validate(schema, ticket, openapi3.VisitAsResponse()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("compiled each call", func(b *testing.B) {
		for b.Loop() {
			if err := schema.VisitJSON(ticket, openapi3.VisitAsResponse(), openapi3.EnableJSONSchema2020()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
