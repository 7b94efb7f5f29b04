package chat

// Conversation is a visitor's chat session, as the API shows it.
type Conversation struct {
	ID            string             `json:"id"`
	Object        conversationObject `json:"object"`
	Mode          Mode               `json:"-"`
	SiteID        string             `json:"site_id"`
	VisitorID     *string            `json:"-"`
	Status        Status             `json:"status"`
	Subject       *string            `json:"subject"`
	ContactID     *string            `json:"contact_id"`
	AssigneeID    *string            `json:"assignee_id"`
	MessageCount  int                `json:"message_count"`
	PageURL       string             `json:"page_url"`
	LastMessageAt Timestamp          `json:"last_message_at"`
	Metadata      map[string]string  `json:"metadata"`
	Tags          []string           `json:"tags"`
	Rating        *Rating            `json:"rating"` // nil until the visitor rates it
	CreatedAt     Timestamp          `json:"created_at"`
	UpdatedAt     Timestamp          `json:"updated_at"`
}

// Rating is a visitor's score of a closed conversation.
type Rating struct {
	Score   int       `json:"score"` // 1 to 5
	Comment *string   `json:"comment"`
	RatedAt Timestamp `json:"rated_at"`
}

// Note is an internal note of the team on a conversation; it never reaches
// the visitor.
type Note struct {
	ID             string     `json:"id"`
	Object         noteObject `json:"object"`
	Mode           Mode       `json:"-"`
	ConversationID string     `json:"conversation_id"`
	AuthorID       *string    `json:"author_id"`
	Body           string     `json:"body"`
	CreatedAt      Timestamp  `json:"created_at"`
}
