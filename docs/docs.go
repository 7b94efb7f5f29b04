// Package docs holds the documents shipped inside the binary: the OpenAPI
// description of the REST API, served at /v1/openapi.json.
package docs

import _ "embed"

// OpenAPI is docs/openapi.json, the OpenAPI 3.1 description of the REST
// API under /v1. Its server URL is a template on public_url; the served copy
// names the server's own public root.
//
//go:embed openapi.json
var OpenAPI []byte
