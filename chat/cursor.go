package chat

// Cursor is a position in a list: the sort key and id of the last row seen.
type Cursor struct {
	Key int64
	ID  string
}
