package chat

// The statuses of an e-mail in the outbox: pending until it is sent, or
// failed once the mailer gives up on it.
const (
	MailPending = "pending"
	MailSent    = "sent"
	MailFailed  = "failed"
)

// The statuses of the e-mail alert owed for a conversation left waiting:
// pending until it is due, then sent, or skipped when the conversation no
// longer needs it.
const (
	AlertPending = "pending"
	AlertSent    = "sent"
	AlertSkipped = "skipped"
)
