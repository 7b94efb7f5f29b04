package openapicheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// kin-openapi validates a value against a schema of an OpenAPI 3.1 document
// by compiling a JSON Schema 2020-12 validator on every call: a
// marshalling of the schema and a compilation, for every response and
// request body the tests send, which made the check a sixth of the web
// package's CPU. The checker takes the JSON bodies over and compiles each
// schema once (bodyValidators), making the same choice the library makes
// on each call: the compiled validator, or the library's own visitor for
// a schema that refers to other components without using a keyword only
// JSON Schema 2020-12 has. Headers and parameters, whose schemas are a
// string or a number, are still the library's.

// bodyValidators holds the validator of each body schema of one document,
// compiled on first use; tests running in parallel share it.
type bodyValidators struct {
	components map[string]any // #/components/schemas as JSON, for $ref targets
	byschema   sync.Map       // *openapi3.Schema → *bodyValidator
}

// bodyValidator is how one schema checks a value: compiled, or by the
// library's visitor (legacy), or never (err, from a reference that cannot
// be resolved).
type bodyValidator struct {
	compiled *jsonschema.Schema
	legacy   bool
	err      error
}

// newBodyValidators prepares the validators of doc's body schemas.
func newBodyValidators(doc *openapi3.T) (*bodyValidators, error) {
	v := &bodyValidators{components: map[string]any{}}
	if doc.Components == nil {
		return v, nil
	}
	raw, err := json.Marshal(doc.Components.Schemas)
	if err != nil {
		return nil, err
	}
	return v, json.Unmarshal(raw, &v.components)
}

// validate checks value, decoded from a JSON body, against schema; opts are
// the library's options of the call (VisitAsRequest or VisitAsResponse,
// MultiErrors), used where the library's visitor decides.
func (v *bodyValidators) validate(schema *openapi3.Schema, value any, opts ...openapi3.SchemaValidationOption) error {
	bv, ok := v.byschema.Load(schema)
	if !ok {
		bv, _ = v.byschema.LoadOrStore(schema, v.compile(schema))
	}
	switch b := bv.(*bodyValidator); {
	case b.err != nil:
		return b.err
	case b.legacy:
		return schema.VisitJSON(value, opts...)
	default:
		return b.compiled.Validate(value)
	}
}

// compile makes the validator of schema, choosing as kin-openapi's
// useJSONSchema2020 does: the library falls back on its own visitor when
// the schema does not compile and uses no keyword only JSON Schema 2020-12
// has, or compiles but refers to other components without using one.
func (v *bodyValidators) compile(schema *openapi3.Schema) *bodyValidator {
	uses2020 := usesJSONSchema2020Keywords(schema)
	compiled, refers, err := v.compileJSONSchema(schema)
	switch {
	case err != nil && uses2020 && strings.Contains(err.Error(), "json-pointer") && strings.Contains(err.Error(), "not found"):
		return &bodyValidator{err: err}
	case err != nil, refers && !uses2020:
		return &bodyValidator{legacy: true}
	}
	return &bodyValidator{compiled: compiled}
}

// compileJSONSchema compiles schema as a JSON Schema 2020-12 document, the
// components it refers to copied under $defs, with the formats the
// library knows asserted; refers tells whether it refers to any.
func (v *bodyValidators) compileJSONSchema(schema *openapi3.Schema) (compiled *jsonschema.Schema, refers bool, err error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, false, err
	}
	var root any
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, false, err
	}
	if m, ok := root.(map[string]any); ok {
		refers = v.localizeRefs(m)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	formats := map[string]bool{}
	collectFormats(root, formats)
	for name := range formats {
		c.RegisterFormat(&jsonschema.Format{Name: name, Validate: formatValidator(name)})
	}
	if len(formats) > 0 {
		c.AssertFormat()
	}
	const url = "https://example.com/schema.json"
	if err := c.AddResource(url, root); err != nil {
		return nil, refers, err
	}
	compiled, err = c.Compile(url)
	return compiled, refers, err
}

// localizeRefs rewrites every #/components/schemas reference under root
// to a copy of its target in root's $defs, copies referring on in turn,
// and tells whether there was any. A target that cannot be found is left
// as it is, for the compilation to report.
func (v *bodyValidators) localizeRefs(root map[string]any) bool {
	const prefix = "#/components/schemas/"
	defs := map[string]any{}
	ids := map[string]string{}
	refers := false
	pending := []any{root}
	for len(pending) > 0 {
		node := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		switch node := node.(type) {
		case map[string]any:
			if ref, ok := node["$ref"].(string); ok && strings.HasPrefix(ref, prefix) {
				refers = true
				id, seen := ids[ref]
				if !seen {
					if target, found := v.component(strings.TrimPrefix(ref, prefix)); found {
						id = fmt.Sprintf("ref%d", len(ids))
						ids[ref] = id
						defs[id] = target
						pending = append(pending, target)
					}
				}
				if id != "" {
					node["$ref"] = "#/$defs/" + id
				}
			}
			for _, child := range node {
				pending = append(pending, child)
			}
		case []any:
			pending = append(pending, node...)
		}
	}
	if len(defs) > 0 {
		root["$defs"] = defs
	}
	return refers
}

// component finds a copy of the schema at pointer (a JSON pointer below
// #/components/schemas) in the document.
func (v *bodyValidators) component(pointer string) (any, bool) {
	var node any = v.components
	for _, token := range strings.Split(pointer, "/") {
		token = strings.NewReplacer("~1", "/", "~0", "~").Replace(token)
		m, ok := node.(map[string]any)
		if !ok {
			return nil, false
		}
		if node, ok = m[token]; !ok {
			return nil, false
		}
	}
	raw, err := json.Marshal(node) // a copy: rewriting its references leaves the document's alone
	if err != nil {
		return nil, false
	}
	var out any
	return out, json.Unmarshal(raw, &out) == nil
}

// collectFormats adds every format named under node to formats.
func collectFormats(node any, formats map[string]bool) {
	switch node := node.(type) {
	case map[string]any:
		if f, ok := node["format"].(string); ok && f != "" {
			formats[f] = true
		}
		for _, child := range node {
			collectFormats(child, formats)
		}
	case []any:
		for _, child := range node {
			collectFormats(child, formats)
		}
	}
}

// formatValidator checks a value of format name with the validators the
// library registers (SchemaStringFormats and its number and integer
// siblings); a format it does not know passes.
func formatValidator(name string) func(any) error {
	return func(value any) error {
		var number float64
		switch value := value.(type) {
		case string:
			if f, ok := openapi3.SchemaStringFormats[name]; ok {
				return f.Validate(value)
			}
			return nil
		case json.Number:
			n, err := value.Float64()
			if err != nil {
				return nil
			}
			number = n
		case float64:
			number = value
		default:
			return nil
		}
		if number == math.Trunc(number) && !math.IsInf(number, 0) {
			if f, ok := openapi3.SchemaIntegerFormats[name]; ok {
				return f.Validate(int64(number))
			}
		}
		if f, ok := openapi3.SchemaNumberFormats[name]; ok {
			return f.Validate(number)
		}
		return nil
	}
}

// errJSONSchema2020Keyword stops the walk of usesJSONSchema2020Keywords.
var errJSONSchema2020Keyword = errors.New("a JSON Schema 2020-12 keyword")

// usesJSONSchema2020Keywords tells whether schema, or one it holds or
// refers to, uses a keyword the library's own visitor does not know.
func usesJSONSchema2020Keywords(schema *openapi3.Schema) bool {
	err := openapi3.NewSchemaRef("", schema).WalkSubtree(func(_ string, ref *openapi3.SchemaRef) error {
		s := ref.Value
		if s == nil {
			return nil
		}
		if s.Const != nil || len(s.PrefixItems) != 0 || s.Contains != nil || len(s.PatternProperties) != 0 ||
			len(s.DependentSchemas) != 0 || s.PropertyNames != nil ||
			s.UnevaluatedItems.Has != nil || s.UnevaluatedItems.Schema != nil ||
			s.UnevaluatedProperties.Has != nil || s.UnevaluatedProperties.Schema != nil ||
			s.If != nil || s.Then != nil || s.Else != nil ||
			len(s.DependentRequired) != 0 || len(s.Defs) != 0 || s.ContentSchema != nil {
			return errJSONSchema2020Keyword
		}
		return nil
	})
	return errors.Is(err, errJSONSchema2020Keyword)
}
