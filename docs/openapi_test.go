package docs_test

import (
	"strings"
	"testing"

	"chatsvc/docs/openapicheck"
)

// The document loads in kin-openapi and passes its validator, and states
// what the API promises: OpenAPI 3.1, version 2026-10-01, bearer keys on every
// operation, the server at {public_url}/v1; the widget's operations, at
// {public_url}/widget/v1, take a visitor token instead.
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
		widget := strings.HasPrefix(path, "/widget/v1/")
		if widget && (len(item.Servers) != 1 || item.Servers[0].URL != "{public_url}") {
			t.Errorf("%s: servers = %+v, want one {public_url}", path, item.Servers)
		}
		for method, op := range item.Operations() {
			public := op.Security != nil && len(*op.Security) == 0
			if public != (path == "/openapi.json" || path == "/widget/v1/sessions" || path == "/widget/v1/sites/{id}") {
				t.Errorf("%s %s: public = %v; only the document itself, the widget's sessions and a site's look are public", method, path, public)
			}
			if token := op.Security != nil && len(*op.Security) == 1 && (*op.Security)[0]["visitorToken"] != nil; widget && !public && !token {
				t.Errorf("%s %s: security %+v, want the visitor token", method, path, op.Security)
			}
			if op.OperationID == "" {
				t.Errorf("%s %s: no operationId", method, path)
			}
		}
	}
}
