package chat

// Message is one message of a conversation, as the API shows it.
type Message struct {
	ID             string        `json:"id"`
	Object         messageObject `json:"object"`
	Mode           Mode          `json:"-"`
	ConversationID string        `json:"conversation_id"`
	Author         Author        `json:"author"`
	Body           string        `json:"body"`
	Attachments    []Attachment  `json:"attachments"` // signed afresh for each response
	Files          []StoredFile  `json:"-"`           // what the attachments column holds
	Sources        []Source      `json:"sources"`
	CreatedAt      Timestamp     `json:"created_at"`
}

// Author types.
const (
	AuthorContact = "contact"
	AuthorBot     = "bot"
	AuthorAgent   = "agent"
	AuthorSystem  = "system"
)

// Author is who wrote a message.
type Author struct {
	Type string  `json:"type"`
	ID   *string `json:"id"`
	Name *string `json:"name"`
}

// Attachment is a file sent with a message, as the API shows it.
type Attachment struct {
	URL  string `json:"url"`
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// Source is a page an assistant reply was drawn from.
type Source struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// StoredFile is an attachment as the database keeps it: the bytes are found
// by Hash in the data dir. The API shows it as an Attachment with a signed URL;
// its JSON form is how a message row lists its files, so renaming a tag
// changes what stored rows mean.
type StoredFile struct {
	ID          string `json:"id"`
	Hash        string `json:"hash"`
	Name        string `json:"name"`
	Size        int64  `json:"size"`
	ContentType string `json:"content_type"`
}
