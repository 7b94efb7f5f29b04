package storage

import "context"

// searchTables are the full-text tables of the desk's search.
var searchTables = []string{"search_messages", "search_text"}

// SearchSegments is how many b-trees (segments) the search tables' words
// are in. FTS5 adds one at each indexing commit and merges them as they
// pile up at one level (automerge), so some are left: every search walks
// each one for each of its words.
func (q *Q) SearchSegments(ctx context.Context) (int, error) {
	total := 0
	for _, t := range searchTables {
		// One index seek per segment, not a scan of the segments' pages.
		var n int
		if err := q.row(ctx, `WITH RECURSIVE seg (id) AS (SELECT MIN(segid) FROM `+t+`_idx
				UNION ALL SELECT (SELECT MIN(segid) FROM `+t+`_idx WHERE segid > seg.id) FROM seg WHERE seg.id IS NOT NULL)
			SELECT COUNT(id) FROM seg`).Scan(&n); err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// MergeSearchSegments merges, in each search table, segments that are
// at the same level, writing at most pages pages each, and reports
// whether there was any to merge. Two at a level are merged (FTS5's
// usermerge 2, where automerge waits for 4), so the segments left are
// about one per level, and a merge never rewrites the large old segment
// for a small new one.
func (q *Q) MergeSearchSegments(ctx context.Context, pages int) (bool, error) {
	merged := false
	for _, t := range searchTables {
		if _, err := q.exec(ctx, `INSERT INTO `+t+` (`+t+`, rank) VALUES ('usermerge', 2)`); err != nil {
			return false, err
		}
		var before, after int64
		if err := q.row(ctx, `SELECT total_changes()`).Scan(&before); err != nil {
			return false, err
		}
		if _, err := q.exec(ctx, `INSERT INTO `+t+` (`+t+`, rank) VALUES ('merge', ?)`, pages); err != nil {
			return false, err
		}
		if err := q.row(ctx, `SELECT total_changes()`).Scan(&after); err != nil {
			return false, err
		}
		// FTS5's own rule: a merge that changed fewer than two rows found
		// nothing to do.
		merged = merged || after-before >= 2
	}
	return merged, nil
}
