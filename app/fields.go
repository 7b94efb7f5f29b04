package app

import (
	"net/mail"
	"strings"
	"unicode/utf8"
)

// Field is a request field that may be absent, present as null, or set.
type Field[T any] struct {
	Set  bool // present in the request (null included)
	Null bool // present as JSON null
	V    T
}

// Value makes a set field.
func Value[T any](v T) Field[T] { return Field[T]{Set: true, V: v} }

// has reports whether the field carries a non-null value.
func (f Field[T]) has() bool { return f.Set && !f.Null }

// ptr returns the value as a pointer, nil when absent or null.
func (f Field[T]) ptr() *T {
	if !f.has() {
		return nil
	}
	v := f.V
	return &v
}

// Metadata limits (docs/api.md, Limits).
const (
	MaxMetadataPairs = 20
	MaxMetadataKey   = 40
	MaxMetadataValue = 500
)

// mergeMetadata applies patch (a nil value deletes its key) to a copy of cur
// and checks the metadata limits.
func mergeMetadata(param string, cur map[string]string, patch map[string]*string) (map[string]string, error) {
	out := make(map[string]string, len(cur)+len(patch))
	for k, v := range cur {
		out[k] = v
	}
	for k, v := range patch {
		p := param + "." + k
		if k == "" {
			return nil, invalid(param, "Metadata keys must not be empty.")
		}
		if n := utf8.RuneCountInString(k); n > MaxMetadataKey {
			return nil, invalid(p, "Metadata keys can be at most %d characters long (this one has %d).", MaxMetadataKey, n)
		}
		if v == nil {
			delete(out, k)
			continue
		}
		if n := utf8.RuneCountInString(*v); n > MaxMetadataValue {
			return nil, invalid(p, "Metadata values can be at most %d characters long (this one has %d).", MaxMetadataValue, n)
		}
		out[k] = *v
	}
	if len(out) > MaxMetadataPairs {
		return nil, invalid(param, "Metadata can have at most %d keys (this request would leave %d).", MaxMetadataPairs, len(out))
	}
	return out, nil
}

// checkLen refuses a string longer than max characters; required also
// refuses an empty (or blank) one.
func checkLen(param, v string, max int, required bool) error {
	if required && strings.TrimSpace(v) == "" {
		return invalid(param, "%s must not be empty.", param)
	}
	if n := utf8.RuneCountInString(v); n > max {
		return invalid(param, "%s can be at most %d characters long (got %d).", param, max, n)
	}
	return nil
}

// oneOf refuses a value outside allowed.
func oneOf(param, v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return invalid(param, "%s must be one of %s (got '%s').", param, strings.Join(allowed, ", "), v)
}

// normalizeEmail checks an e-mail address and returns it trimmed, with its
// lower-cased form used for uniqueness.
func normalizeEmail(param, v string) (email, norm string, err error) {
	email = strings.TrimSpace(v)
	a, perr := mail.ParseAddress(email)
	if perr != nil || a.Address != email || a.Name != "" {
		return "", "", invalid(param, "%s must be a valid e-mail address (got '%s').", param, v)
	}
	return email, strings.ToLower(email), nil
}

func lower(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
