package support

// Ticket tracks a follow-up, as the API shows it.
type Ticket struct {
	ID             string            `json:"id"`
	Object         ticketObject      `json:"object"`
	Mode           Mode              `json:"-"`
	Number         int64             `json:"number"`
	Subject        string            `json:"subject"`
	Description    *string           `json:"description"`
	Status         string            `json:"status"`
	Priority       string            `json:"priority"`
	ContactID      string            `json:"contact_id"`
	ConversationID *string           `json:"conversation_id"`
	AssigneeID     *string           `json:"assignee_id"`
	Tags           []string          `json:"tags"`
	Metadata       map[string]string `json:"metadata"`
	CreatedAt      Timestamp         `json:"created_at"`
	UpdatedAt      Timestamp         `json:"updated_at"`
	SolvedAt       *Timestamp        `json:"solved_at"`
}
