package testenv

import (
	"strings"
	"testing"
)

// TestSkipLine names each missing dependency, the tests it serves and the
// package to install, in one line; with nothing missing it is empty.
func TestSkipLine(t *testing.T) {
	defer func(c Dependency, corpora []Dependency) { Chromium, Corpora = c, corpora }(Chromium, Corpora)
	Chromium = Dependency{Tests: "browser tests", Path: t.TempDir() + "/chromium", Package: "chromium"}
	Corpora = []Dependency{{Tests: "git evaluation", Path: t.TempDir(), Package: "git-doc"}}
	line := SkipLine()
	if strings.Contains(line, "\n") || !strings.Contains(line, "skipped browser tests (no "+Chromium.Path+")") ||
		!strings.HasSuffix(line, "apt-get install -y chromium to run them") || strings.Contains(line, "git") {
		t.Errorf("skip line %q", line)
	}
	Chromium.Path = Corpora[0].Path
	if line := SkipLine(); line != "" {
		t.Errorf("nothing missing, but %q", line)
	}
}
