package docs_test

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestArchitectureImports: the import table of docs/architecture.md is what
// `go list` says each package of the binary imports of ours.
func TestArchitectureImports(t *testing.T) {
	// go test puts its own go command first on the PATH.
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "chatsvc/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	left := func(pkg string) bool { // test-only packages and the benchmarks
		return strings.HasPrefix(pkg, "testenv") || strings.HasPrefix(pkg, "bench") || pkg == "browser" ||
			pkg == "knowledge/knowledgetest" || pkg == "assistant/assistanttest" || pkg == "docs/openapicheck"
	}
	code := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], "chatsvc"), "/")
		if pkg == "" {
			pkg = "main"
		}
		if left(pkg) {
			continue
		}
		ours := []string{}
		for _, imp := range fields[1:] {
			if p, ok := strings.CutPrefix(imp, "chatsvc/"); ok {
				ours = append(ours, p)
			}
		}
		slices.Sort(ours)
		code[pkg] = ours
	}
	doc, err := os.ReadFile("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "<!-- imports -->")
	table, _, ok2 := strings.Cut(table, "<!-- /imports -->")
	if !ok || !ok2 {
		t.Fatal("architecture.md has no import table between <!-- imports --> and <!-- /imports -->")
	}
	row := regexp.MustCompile("^\\| `([a-z/]+)` \\| (.*) \\|$")
	name := regexp.MustCompile("`([a-z/]+)`")
	documented := map[string][]string{}
	for _, line := range strings.Split(table, "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		imports := []string{}
		for _, n := range name.FindAllStringSubmatch(m[2], -1) {
			imports = append(imports, n[1])
		}
		slices.Sort(imports)
		documented[m[1]] = imports
	}
	for pkg, imports := range code {
		got, ok := documented[pkg]
		switch {
		case !ok:
			t.Errorf("%s (imports %v) is not in the table", pkg, imports)
		case !slices.Equal(got, imports):
			t.Errorf("%s: the table says it imports %v; it imports %v", pkg, got, imports)
		}
	}
	for pkg := range documented {
		if _, ok := code[pkg]; !ok {
			t.Errorf("the table names %s, which is not a package of the binary", pkg)
		}
	}
}
