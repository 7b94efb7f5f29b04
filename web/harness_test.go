package web_test

import (
	"strconv"
	"strings"
)

func itoa(n int) string { return strconv.Itoa(n) }

// str makes a string of n copies of s.
func str(s string, n int) string { return strings.Repeat(s, n) }

// meta makes a metadata object with n pairs.
func meta(n int) map[string]any {
	m := map[string]any{}
	for i := 0; i < n; i++ {
		m["k"+itoa(i)] = "v"
	}
	return m
}
