package chat

import "encoding/json"

// Contact is a person who wrote in, as the API shows it.
type Contact struct {
	ID         string                     `json:"id"`
	Object     contactObject              `json:"object"`
	Mode       Mode                       `json:"-"`
	Email      *string                    `json:"email"`
	Name       *string                    `json:"name"`
	Phone      *string                    `json:"phone"`
	ExternalID *string                    `json:"external_id"`
	Attributes map[string]json.RawMessage `json:"attributes"`
	LastSeenAt *Timestamp                 `json:"last_seen_at"`
	CreatedAt  Timestamp                  `json:"created_at"`
	UpdatedAt  Timestamp                  `json:"updated_at"`
}

// ActiveAt is the contact's place in "most recently active first".
func (c *Contact) ActiveAt() Timestamp {
	if c.LastSeenAt != nil {
		return *c.LastSeenAt
	}
	return c.UpdatedAt
}
