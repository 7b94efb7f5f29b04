package chat

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

// Ways a ticket comment came in.
const (
	ViaAPI       = "api"
	ViaDashboard = "dashboard"
	ViaEmail     = "email"
)

// TicketComment is one entry of a ticket's thread, as the API shows it:
// public ones are the exchange with the contact, internal ones (Public
// false) stay with the team.
type TicketComment struct {
	ID          string              `json:"id"`
	Object      ticketCommentObject `json:"object"`
	Mode        Mode                `json:"-"`
	TicketID    string              `json:"ticket_id"`
	Author      Author              `json:"author"`
	Body        string              `json:"body"`
	Public      bool                `json:"public"`
	Attachments []Attachment        `json:"attachments"` // signed afresh for each response
	Files       []StoredFile        `json:"-"`           // what the attachments column holds
	Via         string              `json:"via"`
	CreatedAt   Timestamp           `json:"created_at"`
}
