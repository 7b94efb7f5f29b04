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
