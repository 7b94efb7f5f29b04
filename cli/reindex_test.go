package cli_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/knowledge"
	"chatsvc/storage"
)

// knowledgeDir fills a data dir with synced text sources, one deleted, and
// returns what a set of queries finds in its index.
func knowledgeDir(t *testing.T, dir string, queries []knowledge.Query) [][]knowledge.Passage {
	t.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	idx, err := knowledge.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	svc := app.New(db, app.Options{Knowledge: &app.Knowledge{Index: idx}})
	texts := []string{
		"# Shipping\nParcels leave the warehouse every weekday.\n\n# Returns\nReturns are free for thirty days.",
		"# Payments\nWe take cards and bank transfers. Refunds go back to the card.",
		"# Shipping abroad\nCustoms fees are paid by the recipient.",
		"# Deleted\nThis source is deleted before the rebuild; shipping returns refunds.",
	}
	var last string
	for i, text := range texts {
		mode := chat.Test
		if i == 2 {
			mode = chat.Live
		}
		k, err := svc.CreateKnowledgeSource(ctx, mode, app.SourceCreate{Type: app.Value("text"),
			Name: app.Value("Source " + string(rune('A'+i))), Content: app.Value(text)})
		if err != nil {
			t.Fatal(err)
		}
		last = k.ID
	}
	for _, step := range []func(context.Context) (bool, error){svc.SyncStep, svc.SyncStep, svc.SyncStep, svc.SyncStep, svc.IndexStep} {
		if _, err := step(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.DeleteKnowledgeSource(ctx, chat.Test, last); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.IndexStep(ctx); err != nil {
		t.Fatal(err)
	}
	return find(t, idx, queries)
}

func find(t *testing.T, idx *knowledge.Index, queries []knowledge.Query) [][]knowledge.Passage {
	t.Helper()
	var out [][]knowledge.Passage
	for _, q := range queries {
		ps, err := idx.Search(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ps)
	}
	return out
}

func TestReindexOnACopyGivesTheSameResults(t *testing.T) {
	in := newInstall(t)
	data := filepath.Join(filepath.Dir(in.config), "data")
	queries := []knowledge.Query{
		{Mode: chat.Test, Text: "shipping returns refunds"},
		{Mode: chat.Test, Text: "card"},
		{Mode: chat.Live, Text: "shipping customs"},
	}
	before := knowledgeDir(t, data, queries)
	if len(before[0]) == 0 || len(before[2]) == 0 {
		t.Fatalf("nothing found before the rebuild: %v", before)
	}
	for _, p := range before[0] {
		if strings.Contains(p.Text, "deleted") {
			t.Fatalf("a deleted source is still searched: %v", p)
		}
	}

	copyDir := filepath.Join(t.TempDir(), "copy")
	copyTree(t, data, copyDir)
	os.RemoveAll(filepath.Join(copyDir, knowledge.DirName)) // the index is derived: rebuilt from the database alone
	in.mustLast(`^Indexed 4 chunks\.$`, "reindex", "--data", copyDir)

	idx, err := knowledge.Open(copyDir)
	if err != nil {
		t.Fatal(err)
	}
	after := find(t, idx, queries)
	// BM25's statistics count replaced documents until segments merge, so
	// scores may differ; the passages and their order may not.
	for _, r := range append(before, after...) {
		for i := range r {
			r[i].Score = 0
		}
	}
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("before reindex %v\nafter %v", before, after)
	}
	// While another process holds the index, reindex refuses.
	code, _, stderr := in.run("reindex", "--data", copyDir)
	idx.Close()
	if code == 0 || !strings.Contains(stderr, "stop chatsvc serve") {
		t.Fatalf("reindex beside an open index: exit %d, %s", code, stderr)
	}
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o750)
		}
		src, err := os.Open(path)
		if err != nil {
			return err
		}
		defer src.Close()
		out, err := os.Create(dst)
		if err != nil {
			return err
		}
		defer out.Close()
		_, err = io.Copy(out, src)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
