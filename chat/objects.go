package chat

import "fmt"

// The "object" field of each API object names its kind. Its types below are
// empty, so the field takes no memory, no code has to set it and it cannot be
// wrong: each writes its constant name as JSON text (encoding/json only
// quotes MarshalText output, where a MarshalJSON result would be re-validated
// on the list path, see docs/performance.md), and reading accepts only that
// name.

type conversationObject struct{}
type messageObject struct{}
type contactObject struct{}
type ticketObject struct{}
type knowledgeSourceObject struct{}
type webhookEndpointObject struct{}
type webhookDeliveryObject struct{}
type noteObject struct{}
type cannedReplyObject struct{}
type searchResultObject struct{}
type ticketCommentObject struct{}
type synonymObject struct{}

var (
	conversationName    = []byte("conversation")
	messageName         = []byte("message")
	contactName         = []byte("contact")
	ticketName          = []byte("ticket")
	knowledgeSourceName = []byte("knowledge_source")
	webhookEndpointName = []byte("webhook_endpoint")
	webhookDeliveryName = []byte("webhook_delivery")
	noteName            = []byte("note")
	cannedReplyName     = []byte("canned_reply")
	searchResultName    = []byte("search_result")
	ticketCommentName   = []byte("ticket_comment")
	synonymName         = []byte("synonym")
)

func (conversationObject) MarshalText() ([]byte, error)    { return conversationName, nil }
func (messageObject) MarshalText() ([]byte, error)         { return messageName, nil }
func (contactObject) MarshalText() ([]byte, error)         { return contactName, nil }
func (ticketObject) MarshalText() ([]byte, error)          { return ticketName, nil }
func (knowledgeSourceObject) MarshalText() ([]byte, error) { return knowledgeSourceName, nil }
func (webhookEndpointObject) MarshalText() ([]byte, error) { return webhookEndpointName, nil }
func (webhookDeliveryObject) MarshalText() ([]byte, error) { return webhookDeliveryName, nil }
func (noteObject) MarshalText() ([]byte, error)            { return noteName, nil }
func (cannedReplyObject) MarshalText() ([]byte, error)     { return cannedReplyName, nil }
func (searchResultObject) MarshalText() ([]byte, error)    { return searchResultName, nil }
func (ticketCommentObject) MarshalText() ([]byte, error)   { return ticketCommentName, nil }
func (synonymObject) MarshalText() ([]byte, error)         { return synonymName, nil }

func (*conversationObject) UnmarshalText(b []byte) error    { return isObject(b, conversationName) }
func (*messageObject) UnmarshalText(b []byte) error         { return isObject(b, messageName) }
func (*contactObject) UnmarshalText(b []byte) error         { return isObject(b, contactName) }
func (*ticketObject) UnmarshalText(b []byte) error          { return isObject(b, ticketName) }
func (*knowledgeSourceObject) UnmarshalText(b []byte) error { return isObject(b, knowledgeSourceName) }
func (*webhookEndpointObject) UnmarshalText(b []byte) error { return isObject(b, webhookEndpointName) }
func (*webhookDeliveryObject) UnmarshalText(b []byte) error { return isObject(b, webhookDeliveryName) }
func (*noteObject) UnmarshalText(b []byte) error            { return isObject(b, noteName) }
func (*cannedReplyObject) UnmarshalText(b []byte) error     { return isObject(b, cannedReplyName) }
func (*searchResultObject) UnmarshalText(b []byte) error    { return isObject(b, searchResultName) }
func (*ticketCommentObject) UnmarshalText(b []byte) error   { return isObject(b, ticketCommentName) }
func (*synonymObject) UnmarshalText(b []byte) error         { return isObject(b, synonymName) }

func isObject(got, want []byte) error {
	if string(got) != string(want) {
		return fmt.Errorf("object is %q, not %q", got, want)
	}
	return nil
}
