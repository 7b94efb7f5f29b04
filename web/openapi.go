package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"chatsvc/docs"
)

// openAPIDocument serves docs/openapi.json at GET /v1/openapi.json. It needs
// no API key: the document holds no data, and tools (code generators, API
// explorers) can fetch it as is, also from another origin. The served copy
// names this server's public root as its server, where the file has a
// template on public_url.
func openAPIDocument(publicURL string) http.HandlerFunc {
	body := servedOpenAPI(docs.OpenAPI, publicURL)
	return func(w http.ResponseWriter, r *http.Request) {
		if _, err := query(r); err != nil {
			writeError(w, r, err)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Content-Length", strconv.Itoa(len(body)))
		h.Set("Access-Control-Allow-Origin", "*")
		w.Write(body)
	}
}

// servedOpenAPI returns doc with its servers replaced by publicURL/v1. The
// other members are kept byte for byte; doc is the embedded file, checked by
// the tests, so a failure here is a build defect and panics at start-up.
func servedOpenAPI(doc []byte, publicURL string) []byte {
	if publicURL == "" {
		return doc
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(doc, &top); err != nil {
		panic("docs/openapi.json: " + err.Error())
	}
	servers, err := json.Marshal([]map[string]string{{
		"url":         strings.TrimRight(publicURL, "/") + "/v1",
		"description": "This server.",
	}})
	if err != nil {
		panic(err)
	}
	top["servers"] = servers
	out, err := json.MarshalIndent(top, "", "  ")
	if err != nil {
		panic("docs/openapi.json: " + err.Error())
	}
	return append(out, '\n')
}
