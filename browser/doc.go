// Package browser holds the tests that drive the widget and the dashboard
// in a real headless Chromium: what a visitor and a team member see and do,
// through the web package's handler, with screenshots of every page.
//
// It has no code of its own. The tests live apart from web's so that go
// test, which starts packages in the order of their import paths, runs
// them beside the other packages instead of after them all: most of their
// time is spent waiting on the browser.
package browser
