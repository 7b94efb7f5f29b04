// Package optional has one test, which says what the tests of this machine
// skip: see its test file.
package optional
