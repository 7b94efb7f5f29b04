package testenv

import (
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Kind is the JSON type a field of an API object must have.
type Kind int

// The kinds of JSON value an API object's field may hold.
const (
	String Kind = iota + 1
	StringOrNull
	Int
	Object
	Array
	Time
	TimeOrNull
	Bool
	ObjectOrNull
)

func (k Kind) String() string {
	return [...]string{"?", "string", "string or null", "integer", "object", "array", "timestamp",
		"timestamp or null", "boolean", "object or null"}[k]
}

var timeRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$`)

// IsTime reports whether v is an ISO 8601 timestamp in UTC ("…Z"), the only
// form the API writes.
func IsTime(v any) bool {
	s, ok := v.(string)
	if !ok || !timeRE.MatchString(s) {
		return false
	}
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// ParseTime checks that v is an API timestamp and parses it.
func ParseTime(tb testing.TB, field string, v any) time.Time {
	tb.Helper()
	if !IsTime(v) {
		tb.Fatalf("%s = %v (%T), want an ISO 8601 UTC timestamp", field, v, v)
	}
	tm, _ := time.Parse(time.RFC3339Nano, v.(string))
	return tm
}

// Is reports whether v is of kind k.
func (k Kind) Is(v any) bool {
	switch k {
	case String, StringOrNull:
		_, ok := v.(string)
		return ok || (k == StringOrNull && v == nil)
	case Int:
		f, ok := v.(float64)
		return ok && f == float64(int64(f))
	case Object, ObjectOrNull:
		_, ok := v.(map[string]any)
		return ok || (k == ObjectOrNull && v == nil)
	case Array:
		_, ok := v.([]any)
		return ok
	case Time:
		return IsTime(v)
	case TimeOrNull:
		return v == nil || IsTime(v)
	case Bool:
		_, ok := v.(bool)
		return ok
	}
	return false
}

// Fields checks that obj has exactly the fields of want, each of its kind.
func Fields(tb testing.TB, what string, obj map[string]any, want map[string]Kind) {
	tb.Helper()
	for k, v := range obj {
		if _, ok := want[k]; !ok {
			tb.Errorf("%s: unexpected field %q = %v", what, k, v)
		}
	}
	for k, kind := range want {
		v, ok := obj[k]
		if !ok {
			tb.Errorf("%s: field %q missing", what, k)
			continue
		}
		if !kind.Is(v) {
			tb.Errorf("%s.%s = %#v, want %s", what, k, v, kind)
		}
	}
}

// Ident checks an object's "object" name and the prefix of its id.
func Ident(tb testing.TB, obj map[string]any, object, prefix string) {
	tb.Helper()
	if obj["object"] != object {
		tb.Errorf("object = %v, want %s", obj["object"], object)
	}
	if id, _ := obj["id"].(string); !strings.HasPrefix(id, prefix) || len(id) <= len(prefix) {
		tb.Errorf("id = %v, want prefix %s", obj["id"], prefix)
	}
}

// Equal fails the test unless got and want are deeply equal.
func Equal(tb testing.TB, what string, got, want any) {
	tb.Helper()
	if !reflect.DeepEqual(got, want) {
		tb.Errorf("%s:\n got  %#v\n want %#v", what, got, want)
	}
}

// Anys returns v as a JSON array, nil when it is not one.
func Anys(v any) []any { a, _ := v.([]any); return a }

// List checks a list envelope (object "list", data, has_more, and a
// next_cursor that is set exactly when has_more is true) and returns its
// objects.
func List(tb testing.TB, b map[string]any) []map[string]any {
	tb.Helper()
	Fields(tb, "list", b, map[string]Kind{"object": String, "data": Array, "has_more": Bool, "next_cursor": StringOrNull})
	if b["object"] != "list" {
		tb.Errorf("list object = %v", b["object"])
	}
	if cur, _ := b["next_cursor"].(string); (b["has_more"] == true) != (cur != "") {
		tb.Errorf("has_more %v with next_cursor %v", b["has_more"], b["next_cursor"])
	}
	var out []map[string]any
	for _, x := range Anys(b["data"]) {
		o, ok := x.(map[string]any)
		if !ok {
			tb.Fatalf("list item is not an object: %#v", x)
		}
		out = append(out, o)
	}
	return out
}

// IDs returns the ids of objs, in order.
func IDs(objs []map[string]any) []string {
	ids := make([]string, len(objs))
	for i, o := range objs {
		ids[i], _ = o["id"].(string)
	}
	return ids
}

// WithQuery adds name=value to path's query.
func WithQuery(path, name, value string) string {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + name + "=" + url.QueryEscape(value)
}

// Walk pages through the list at path with the given page size, reading
// each page with get and calling between (when not nil) before each
// following page; it returns the ids seen and fails on a duplicate id, a
// page over the limit, a short page with more to come, or a bad envelope.
func Walk(tb testing.TB, get func(path string) map[string]any, path string, limit int, between func()) []string {
	tb.Helper()
	first := WithQuery(path, "limit", strconv.Itoa(limit))
	next := first
	seen := map[string]bool{}
	var ids []string
	for page := 0; ; page++ {
		if page > 10000 {
			tb.Fatal("pagination does not end")
		}
		b := get(next)
		objs := List(tb, b)
		if len(objs) > limit {
			tb.Fatalf("page has %d rows, limit %d", len(objs), limit)
		}
		for _, id := range IDs(objs) {
			if seen[id] {
				tb.Fatalf("duplicate %s in pagination (page %d)", id, page)
			}
			seen[id] = true
			ids = append(ids, id)
		}
		if b["has_more"] != true {
			return ids
		}
		if len(objs) != limit {
			tb.Fatalf("page %d with has_more has %d rows, want %d", page, len(objs), limit)
		}
		if between != nil {
			between()
		}
		next = WithQuery(first, "cursor", b["next_cursor"].(string))
	}
}

// MustEqual is Equal that stops the test.
func MustEqual(tb testing.TB, what string, got, want any) {
	tb.Helper()
	if !reflect.DeepEqual(got, want) {
		tb.Fatalf("%s:\n got  %#v\n want %#v", what, got, want)
	}
}
