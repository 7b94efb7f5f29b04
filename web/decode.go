package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"chatsvc/app"
)

// MaxBodyBytes bounds every request body. The largest field the API allows
// (100000 characters of knowledge source content) fits with room to spare.
const MaxBodyBytes = 1 << 20

var errTooLarge = &app.Error{Kind: app.TooLarge, Code: "body_too_large",
	Message: "The request body is larger than " + strconv.Itoa(MaxBodyBytes) + " bytes."}

// readBody reads the whole request body, up to MaxBodyBytes.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, errTooLarge
	} else if err != nil {
		return nil, &app.Error{Kind: app.Invalid, Code: app.CodeBodyInvalid, Message: "The request body could not be read."}
	}
	return data, nil
}

// body is a JSON object being read field by field. The first problem found
// is kept in err and reported with the parameter's dotted name.
type body struct {
	prefix string
	raw    map[string]json.RawMessage
	err    *error
}

// decodeBody reads the request's JSON object (an empty body is an empty
// object) and refuses fields outside allowed.
func decodeBody(w http.ResponseWriter, r *http.Request, allowed ...string) (*body, error) {
	data, err := readBody(w, r)
	if err != nil {
		return nil, err
	}
	var first error
	b := &body{raw: map[string]json.RawMessage{}, err: &first}
	if len(data) == 0 {
		return b, nil
	}
	if err := json.Unmarshal(data, &b.raw); err != nil || b.raw == nil {
		return nil, &app.Error{Kind: app.Invalid, Code: app.CodeBodyInvalid, Message: notAnObject(r, data, err)}
	}
	return b, b.only(allowed)
}

// only refuses fields outside allowed, naming the first in sorted order.
func (b *body) only(allowed []string) error {
	var unknown []string
	for k := range b.raw {
		if !slices.Contains(allowed, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return app.Unknown(b.prefix + unknown[0])
}

func (b *body) fail(err error) {
	if *b.err == nil {
		*b.err = err
	}
}

// Err is the first problem met while reading fields.
func (b *body) Err() error { return *b.err }

// field decodes name into dst. nullable allows JSON null; what is a
// description of the expected type for the error message.
func field[T any](b *body, name string, nullable bool, what string) app.Field[T] {
	raw, ok := b.raw[name]
	if !ok {
		return app.Field[T]{}
	}
	if string(raw) == "null" {
		if !nullable {
			b.fail(app.Invalidf(b.prefix+name, "%s%s must be %s, not null.", b.prefix, name, what))
		}
		return app.Field[T]{Set: true, Null: true}
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		b.fail(app.Invalidf(b.prefix+name, "%s%s must be %s.", b.prefix, name, what))
		return app.Field[T]{}
	}
	return app.Value(v)
}

func (b *body) str(name string) app.Field[string] { return field[string](b, name, false, "a string") }

func (b *body) strOrNull(name string) app.Field[string] {
	return field[string](b, name, true, "a string or null")
}

func (b *body) boolean(name string) app.Field[bool] { return field[bool](b, name, false, "a boolean") }

func (b *body) integer(name string) app.Field[int] {
	return field[int](b, name, false, "a whole number")
}

func (b *body) strings(name string) app.Field[[]string] {
	return field[[]string](b, name, false, "an array of strings")
}

// metadata reads an object of string values, where null deletes a key.
func (b *body) metadata(name string) app.Field[map[string]*string] {
	obj := b.object(name)
	if !obj.Set {
		return app.Field[map[string]*string]{}
	}
	out := make(map[string]*string, len(obj.V))
	for k, raw := range obj.V {
		if string(raw) == "null" {
			out[k] = nil
			continue
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			b.fail(app.Invalidf(b.prefix+name+"."+k, "Metadata values must be strings (or null to delete the key)."))
			continue
		}
		out[k] = &s
	}
	return app.Value(out)
}

// object reads a JSON object as raw members.
func (b *body) object(name string) app.Field[map[string]json.RawMessage] {
	return field[map[string]json.RawMessage](b, name, false, "an object")
}

// nested reads an object field as a body of its own, with its own allowed fields.
func (b *body) nested(name string, allowed ...string) (*body, bool) {
	obj := b.object(name)
	if !obj.Set || obj.V == nil {
		return nil, false
	}
	nb := &body{prefix: b.prefix + name + ".", raw: obj.V, err: b.err}
	if err := nb.only(allowed); err != nil {
		b.fail(err)
	}
	return nb, true
}

// objects reads an array of objects, each as a body with the allowed fields.
func (b *body) objects(name string, allowed ...string) app.Field[[]*body] {
	arr := field[[]json.RawMessage](b, name, false, "an array of objects")
	if !arr.Set {
		return app.Field[[]*body]{}
	}
	out := make([]*body, len(arr.V))
	for i, raw := range arr.V {
		p := b.prefix + name + "." + strconv.Itoa(i)
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil || m == nil {
			b.fail(app.Invalidf(p, "%s must be an object.", p))
			return app.Field[[]*body]{}
		}
		out[i] = &body{prefix: p + ".", raw: m, err: b.err}
		if err := out[i].only(allowed); err != nil {
			b.fail(err)
		}
	}
	return app.Value(out)
}

// query returns the query string's values, refusing parameters outside
// allowed and repeated ones.
func query(r *http.Request, allowed ...string) (url.Values, error) {
	q := r.URL.Query()
	names := make([]string, 0, len(q))
	for k := range q {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if !slices.Contains(allowed, k) {
			return nil, app.Unknown(k)
		}
		if len(q[k]) > 1 {
			return nil, app.Invalidf(k, "%s is given more than once.", k)
		}
	}
	return q, nil
}

// listParams reads the pagination parameters.
func listParams(q url.Values) app.ListParams {
	return app.ListParams{Limit: q.Get("limit"), Cursor: q.Get("cursor")}
}

// notAnObject says what is wrong with a body that is not a JSON object, and
// where: the line and column of a syntax error, or what was sent instead.
func notAnObject(r *http.Request, data []byte, err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	msg := "The request body must be a JSON object, not null."
	switch {
	case errors.As(err, &syntax):
		at := syntax.Offset - 1 // the byte that broke the syntax
		if at >= int64(len(data))-1 && strings.HasPrefix(syntax.Error(), "unexpected end") {
			at = int64(len(data)) // just after the last byte
		}
		line, col := position(data, at)
		msg = fmt.Sprintf("The request body is not valid JSON: %s, at line %d, column %d.", syntaxProblem(syntax, data, at), line, col)
	case errors.As(err, &typ):
		msg = fmt.Sprintf("The request body must be a JSON object, not %s.", jsonKinds[typ.Value])
	}
	if ct, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); !strings.EqualFold(strings.TrimSpace(ct), "application/json") {
		msg += " Send it with Content-Type: application/json."
	}
	return msg
}

// syntaxProblem says in the API's words what broke the JSON at offset at:
// an unexpected character and what was expected there, or the end.
func syntaxProblem(err *json.SyntaxError, data []byte, at int64) string {
	if at >= int64(len(data)) {
		return "the body ends before the JSON is complete"
	}
	r, _ := utf8.DecodeRune(data[at:])
	for _, w := range syntaxWhere {
		if strings.HasSuffix(err.Error(), w[0]) {
			return fmt.Sprintf("unexpected %q %s", r, w[1])
		}
	}
	return fmt.Sprintf("unexpected %q", r)
}

// syntaxWhere maps where encoding/json met a character to the API's words.
var syntaxWhere = [][2]string{
	{"looking for beginning of value", "where a value should start"},
	{"looking for beginning of object key string", "where a field name in double quotes should start"},
	{"after object key", "after a field name, where a colon should follow"},
	{"after object key:value pair", "after a field, where a comma or } should follow"},
	{"after array element", "after an array item, where a comma or ] should follow"},
	{"after top-level value", "after the JSON object"},
	{"in string literal", "in a string (control characters must be escaped)"},
	{"in string escape code", "in a string's escape sequence"},
	{"in numeric literal", "in a number"},
}

var jsonKinds = map[string]string{"array": "an array", "string": "a string", "number": "a number", "bool": "true or false"}

// position is the line and column, both from 1, of the byte at offset.
func position(data []byte, offset int64) (line, col int) {
	before := data[:min(int(offset), len(data))]
	return bytes.Count(before, []byte("\n")) + 1, len(before) - bytes.LastIndexByte(before, '\n')
}
