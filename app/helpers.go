package app

// Small helpers every part of the service uses: not-found errors, JSON as
// the API writes it, text and pointer chores. Nothing here knows a domain
// rule.

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"

	"chatsvc/storage"
)

// isNotFound tells storage's not-found error, wrapped or not.
func isNotFound(err error) bool { return errors.Is(err, storage.ErrNotFound) }

// found maps storage.ErrNotFound to the given *Error and passes others on.
func found(err error, notFound *Error) error {
	if errors.Is(err, storage.ErrNotFound) {
		return notFound
	}
	return err
}

// orNil reads a missing row as nil, for lookups where none is an answer.
func orNil[T any](v *T, err error) (*T, error) {
	if isNotFound(err) {
		return nil, nil
	}
	return v, err
}

// orGone reads a missing row as nothing left to do: the work was done
// already, or its object was deleted.
func orGone(err error) error {
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	return err
}

// marshal encodes v as the API writes it (no HTML escaping), compactly.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// clip cuts s to at most n characters.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// deref is the string p points to, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// dedupe drops repeated tags, keeping the first occurrence's place.
func dedupe[T comparable](tags []T) []T {
	out := make([]T, 0, len(tags))
	for _, t := range tags {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// eqPtr tells whether two optional values are both absent or equal.
func eqPtr[T comparable](a, b *T) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}
