package chat

// CannedReply is a saved answer the team inserts into a reply by its
// shortcut; its body may hold variables such as {{contact.name}}.
type CannedReply struct {
	ID        string            `json:"id"`
	Object    cannedReplyObject `json:"object"`
	Mode      Mode              `json:"-"`
	Shortcut  string            `json:"shortcut"`
	Title     string            `json:"title"`
	Body      string            `json:"body"`
	CreatedAt Timestamp         `json:"created_at"`
	UpdatedAt Timestamp         `json:"updated_at"`
}

// SearchResult is one object found by a full-text search: a conversation
// (by its messages and notes), a ticket or a contact.
type SearchResult struct {
	Object    searchResultObject `json:"object"`
	Type      string             `json:"type"`
	ID        string             `json:"id"`
	Title     string             `json:"title"`
	Snippet   string             `json:"snippet"`
	CreatedAt Timestamp          `json:"created_at"`
}

// Synonym is a group of words or expressions that mean the same to the
// team's customers ("stash", "put aside", "shelve"): the assistant
// searches for each with the others.
type Synonym struct {
	ID        string        `json:"id"`
	Object    synonymObject `json:"object"`
	Mode      Mode          `json:"-"`
	Words     []string      `json:"words"`
	CreatedAt Timestamp     `json:"created_at"`
	UpdatedAt Timestamp     `json:"updated_at"`
}
