package testenv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Some tests need what a developer's machine may lack: headless Chromium
// for the browser tests, the Debian documentation packages the assistant's
// evaluation crawls. Without them those tests skip, saying how to get them;
// in CI they fail instead. The command testenv/optional prints one line
// naming what this machine skips.

// InCI tells that the tests run in continuous integration: CI is set, to
// anything. There, whatever an optional test needs must be installed.
func InCI() bool { return os.Getenv("CI") != "" }

// Dependency is something optional tests need from the machine.
type Dependency struct {
	Tests   string // the tests that need it
	Path    string // a file or folder it installs
	Package string // the Debian package that installs it
}

// Chromium is headless Chromium, which the browser tests drive.
var Chromium = Dependency{Tests: "browser tests", Path: "/usr/bin/chromium", Package: "chromium"}

// Corpora are the documentation sets the assistant's evaluation crawls.
var Corpora = []Dependency{
	{Tests: "git evaluation", Path: "/usr/share/doc/git-doc", Package: "git-doc"},
	{Tests: "debian evaluation", Path: "/usr/share/debian-reference/ch01.en.html", Package: "debian-reference-en"},
	{Tests: "German evaluation", Path: "/usr/share/debian-reference/ch01.de.html", Package: "debian-reference-de"},
	{Tests: "French evaluation", Path: "/usr/share/debian-reference/ch01.fr.html", Package: "debian-reference-fr"},
	{Tests: "valgrind evaluation", Path: "/usr/share/doc/valgrind/html", Package: "valgrind"},
	{Tests: "help centre evaluation", Path: "/usr/share/libreoffice/help/en-US/text/swriter/guide", Package: "libreoffice-help-en-us"},
	{Tests: "GnuCash help evaluation", Path: "/usr/share/doc/gnucash-docs/gnucash-help-en", Package: "gnucash-docs"},
}

// Optional is every dependency of the optional tests.
func Optional() []Dependency { return append([]Dependency{Chromium}, Corpora...) }

// Missing lists the dependencies this machine lacks.
func Missing() []Dependency {
	var out []Dependency
	for _, d := range Optional() {
		if _, err := os.Stat(d.Path); err != nil {
			out = append(out, d)
		}
	}
	return out
}

// Require skips t when d is missing, saying how to install it, and fails
// it instead in CI.
func Require(t testing.TB, d Dependency) {
	t.Helper()
	if _, err := os.Stat(d.Path); err == nil {
		return
	}
	if InCI() {
		t.Fatalf("%s is missing, and CI must run the %s (apt-get install -y %s)", d.Path, d.Tests, d.Package)
	}
	t.Skipf("%s is missing: apt-get install -y %s to run the %s", d.Path, d.Package, d.Tests)
}

// SkipLine is one line naming the tests this machine skips and why, or ""
// when every optional test can run.
func SkipLine() string {
	missing := Missing()
	if len(missing) == 0 {
		return ""
	}
	parts := make([]string, len(missing))
	pkgs := make([]string, len(missing))
	for i, d := range missing {
		parts[i] = d.Tests + " (no " + d.Path + ")"
		pkgs[i] = d.Package
	}
	return "chatsvc: skipped " + strings.Join(parts, ", ") + "; apt-get install -y " + strings.Join(pkgs, " ") + " to run them"
}

// WatchOptional makes go test's cache of the calling package's results
// depend on the optional dependencies: the cache rechecks no file outside
// the module, but it rechecks the folders a test changed into, so stepping
// into the folder that holds each dependency (or its nearest existing
// parent) and back means that installing one runs the tests again. Call it
// from TestMain, before any test runs.
func WatchOptional() {
	here, err := os.Getwd()
	if err != nil {
		return
	}
	defer os.Chdir(here)
	for _, d := range Optional() {
		dir := filepath.Dir(d.Path)
		for {
			if os.Chdir(dir) == nil || dir == "/" {
				break
			}
			dir = filepath.Dir(dir)
		}
	}
}

// Main is the TestMain of a package with optional tests: it watches their
// dependencies (WatchOptional), then runs the tests and exits.
func Main(m *testing.M) {
	WatchOptional()
	os.Exit(m.Run())
}
