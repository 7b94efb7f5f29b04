package docs_test

import (
	"testing"

	"chatsvc/docs/openapicheck"
)

// The document loads in kin-openapi and passes its validator, and states
// what the API promises: OpenAPI 3.1, version 2026-10-01, bearer keys on every
// operation, the server at {public_url}/v1.
func TestOpenAPIDocumentIsValid(t *testing.T) {
	doc, err := openapicheck.Load()
	if err != nil {
		t.Fatalf("docs/openapi.json does not validate: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() || doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", doc.OpenAPI)
	}
	if doc.Info.Version != "2026-10-01" {
		t.Errorf("info.version = %q, want 2026-10-01", doc.Info.Version)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "{public_url}/v1" {
		t.Errorf("servers = %+v, want one {public_url}/v1", doc.Servers)
	}
	s := doc.Components.SecuritySchemes["bearerAuth"]
	if s == nil || s.Value.Type != "http" || s.Value.Scheme != "bearer" {
		t.Fatalf("no bearer security scheme: %+v", s)
	}
	if len(doc.Security) != 1 || doc.Security[0]["bearerAuth"] == nil {
		t.Errorf("security = %+v, want bearerAuth on every operation", doc.Security)
	}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			public := op.Security != nil && len(*op.Security) == 0
			if public != (path == "/openapi.json") {
				t.Errorf("%s %s: public = %v; only the document itself is public", method, path, public)
			}
			if op.OperationID == "" {
				t.Errorf("%s %s: no operationId", method, path)
			}
		}
	}
}
