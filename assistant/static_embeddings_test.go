package assistant_test

import (
	"context"
	"math"
	"testing"

	"chatsvc/assistant"
	"chatsvc/assistant/assistanttest"
)

// TestStaticModelEmbedsAsModel2Vec: a text's vector is the normalised mean
// of its tokens' rows, unknown words left out, from F32 and F16 weights
// alike; a model put in the folder's place has another name.
func TestStaticModelEmbedsAsModel2Vec(t *testing.T) {
	rows := map[string][]float32{"stash": {1, 0, 0}, "aside": {0.5, 0.5, 0}, "invoice": {0, 0, 2}}
	for _, half := range []bool{false, true} {
		dir := t.TempDir()
		assistanttest.WriteStaticModel(t, dir, rows, half)
		m := &assistant.StaticModel{Dir: dir}
		vs, err := m.Embed(context.Background(), []string{"Stash it ASIDE, please!", "zzz", "invoice"})
		if err != nil {
			t.Fatal(err)
		}
		// stash + aside = (1.5, 0.5, 0) / 2, normalised; "it", "please" and "!" are unknown.
		want := []float32{0.75 / float32(math.Sqrt(0.625)), 0.25 / float32(math.Sqrt(0.625)), 0}
		for i := range want {
			if math.Abs(float64(vs[0][i]-want[i])) > 1e-3 {
				t.Fatalf("half %v: %v, want %v", half, vs[0], want)
			}
		}
		if vs[1][0] != 0 || vs[1][1] != 0 || vs[1][2] != 0 {
			t.Errorf("a text of unknown words: %v, want zeros", vs[1])
		}
		if vs[2][2] != 1 {
			t.Errorf("invoice: %v, want (0, 0, 1)", vs[2])
		}
	}
	dir := t.TempDir()
	assistanttest.WriteStaticModel(t, dir, rows, false)
	before := (&assistant.StaticModel{Dir: dir}).Model()
	assistanttest.WriteStaticModel(t, dir, map[string][]float32{"stash": {1, 0, 0, 0}}, false)
	if after := (&assistant.StaticModel{Dir: dir}).Model(); after == before {
		t.Errorf("a new model in the folder kept the name %q", before)
	}
	if _, err := (&assistant.StaticModel{Dir: t.TempDir()}).Embed(context.Background(), []string{"x"}); err == nil {
		t.Error("an empty folder embedded")
	}
}
