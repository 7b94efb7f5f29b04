package knowledge

import (
	"fmt"
	"os"
	"path/filepath"
)

// rebuildBatch is how many chunks go into one bleve batch while rebuilding.
const rebuildBatch = 1000

// Rebuild replaces the index in dataDir with one built from the chunks fill
// passes to add, and returns how many there were. The new index is built
// beside the old one and swapped in at the end, so a failed rebuild leaves
// the old index as it was. It refuses (ErrInUse) while serve holds the index.
func Rebuild(dataDir string, fill func(add func(Chunk) error) error) (int, error) {
	path := filepath.Join(dataDir, DirName)
	if cur, err := open(path); err != nil {
		return 0, err
	} else if err := cur.Close(); err != nil {
		return 0, err
	}
	fresh := path + ".new"
	if err := os.RemoveAll(fresh); err != nil {
		return 0, err
	}
	x, err := open(fresh)
	if err != nil {
		return 0, err
	}
	n, err := x.fill(fill)
	if cerr := x.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.RemoveAll(fresh)
		return 0, err
	}
	old := path + ".old"
	if err := os.RemoveAll(old); err != nil {
		return 0, err
	}
	if err := os.Rename(path, old); err != nil {
		return 0, err
	}
	if err := os.Rename(fresh, path); err != nil {
		return 0, fmt.Errorf("%w (the previous index is in %s)", err, old)
	}
	return n, os.RemoveAll(old)
}

// fill adds chunks in batches, a page at a time (a page's documents carry
// its size); document ids number each source's chunks in the order they
// come, as Replace does.
func (x *Index) fill(fill func(add func(Chunk) error) error) (int, error) {
	b := x.idx.NewBatch()
	seq := map[string]int{}
	n := 0
	var page []Chunk
	flush := func() error {
		for _, d := range pageDocs(page) {
			i := seq[d.SourceID]
			seq[d.SourceID] = i + 1
			if err := b.Index(docID(d.SourceID, i), d); err != nil {
				return err
			}
			n++
		}
		page = page[:0]
		if b.Size() < rebuildBatch {
			return nil
		}
		err := x.idx.Batch(b)
		b.Reset()
		return err
	}
	err := fill(func(c Chunk) error {
		if len(page) > 0 && !samePage(page[0], c) {
			if err := flush(); err != nil {
				return err
			}
		}
		page = append(page, c)
		return nil
	})
	if err == nil && len(page) > 0 {
		err = flush()
	}
	if err != nil {
		return 0, err
	}
	return n, x.idx.Batch(b)
}
