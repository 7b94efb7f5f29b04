package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"chatsvc/docs"
)

// openAPIDocument serves docs/openapi.json at GET /v1/openapi.json. It needs
// no API key: the document holds no data, and tools (code generators, API
// explorers) can fetch it as is, also from another origin. The served copy
// names this server's public root as its server, where the file has a
// template on public_url. The copy is made at the first request for it:
// most servers are never asked, and a test starts a server each.
func openAPIDocument(publicURL string) http.HandlerFunc {
	served := sync.OnceValue(func() []byte { return servedOpenAPI(docs.OpenAPI, publicURL) })
	return func(w http.ResponseWriter, r *http.Request) {
		if _, err := query(r); err != nil {
			writeError(w, r, err)
			return
		}
		body := served()
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Content-Length", strconv.Itoa(len(body)))
		h.Set("Access-Control-Allow-Origin", "*")
		w.Write(body)
	}
}

// servedOpenAPI returns doc with its servers replaced by publicURL/v1 (the
// widget's paths': by publicURL), keeping the order and content of the
// other members. doc is the embedded
// file, which the tests check, so a failure here is a build defect and
// panics.
func servedOpenAPI(doc []byte, publicURL string) []byte {
	if publicURL == "" {
		return doc
	}
	servers, err := json.Marshal([]map[string]string{{
		"url":         strings.TrimRight(publicURL, "/") + "/v1",
		"description": "This server.",
	}})
	if err != nil {
		panic(err)
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	var flat bytes.Buffer
	if _, err := dec.Token(); err != nil { // the opening brace
		panic("docs/openapi.json: " + err.Error())
	}
	flat.WriteByte('{')
	for dec.More() {
		key, err := dec.Token()
		var value json.RawMessage
		if err == nil {
			err = dec.Decode(&value)
		}
		if err != nil {
			panic("docs/openapi.json: " + err.Error())
		}
		switch key {
		case "servers":
			value = servers
		case "paths": // the widget's paths are served from the public root
			root, _ := json.Marshal(strings.TrimRight(publicURL, "/"))
			value = bytes.ReplaceAll(value, []byte(`"{public_url}"`), root)
		}
		if flat.Len() > 1 {
			flat.WriteByte(',')
		}
		name, _ := json.Marshal(key)
		flat.Write(name)
		flat.WriteByte(':')
		flat.Write(value)
	}
	flat.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, flat.Bytes(), "", "  "); err != nil {
		panic("docs/openapi.json: " + err.Error())
	}
	out.WriteByte('\n')
	return out.Bytes()
}
