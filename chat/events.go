package chat

import "encoding/json"

// Event records that something happened to an object; webhooks deliver it.
type Event struct {
	Seq       int64
	ID        string
	Mode      Mode
	Type      string
	ObjectID  string
	Data      json.RawMessage // the object as the API returned it at the time
	CreatedAt Timestamp
}

// Event types (docs/api.md, Events): every event the service records is
// one of these.
const (
	EventConversationCreated   = "conversation.created"
	EventConversationHandedOff = "conversation.handed_off"
	EventConversationClosed    = "conversation.closed"
	EventConversationRated     = "conversation.rated" // a visitor rated a closed conversation
	EventMessageCreated        = "message.created"
	EventTicketCreated         = "ticket.created"
	EventTicketUpdated         = "ticket.updated"
	EventTicketSolved          = "ticket.solved"
	EventTicketCommentCreated  = "ticket_comment.created"
	EventContactCreated        = "contact.created"
	EventKnowledgeSourceReady  = "knowledge_source.ready" // one per completed sync
	EventKnowledgeSourceFailed = "knowledge_source.failed"
	// EventPing is sent only by an endpoint's test button, never recorded
	// as a subscription.
	EventPing = "ping"
)

// EventTypes are the event types a webhook endpoint may subscribe to.
var EventTypes = []string{
	EventConversationCreated, EventConversationHandedOff, EventConversationClosed, EventConversationRated, EventMessageCreated,
	EventTicketCreated, EventTicketUpdated, EventTicketSolved, EventTicketCommentCreated, EventContactCreated,
	EventKnowledgeSourceReady, EventKnowledgeSourceFailed,
}
