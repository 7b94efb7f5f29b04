package loadgen

import "math/rand/v2"

// RandomCase writes each ASCII letter of s in upper or lower case at
// random. The server keeps search answers keyed by the words as typed and
// matches words in any case, so a random case variant of a query is a new
// search with the same cost: what a benchmark of the search itself needs.
func RandomCase(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' && rand.IntN(2) == 0 {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
