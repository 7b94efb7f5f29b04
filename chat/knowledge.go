package chat

// KnowledgeSource is a source of the assistant's knowledge. The JSON form
// is the API object; the other fields are kept for the service and the team.
type KnowledgeSource struct {
	ID           string                `json:"id"`
	Object       knowledgeSourceObject `json:"object"`
	Type         string                `json:"type"`
	Name         string                `json:"name"`
	URL          *string               `json:"url"`
	Language     *string               `json:"language"`   // a BCP 47 tag; nil: each page's own, detected
	Politeness   string                `json:"politeness"` // polite or own: how the site is crawled
	Status       string                `json:"status"`
	PageCount    int                   `json:"page_count"`
	LastSyncedAt *Timestamp            `json:"last_synced_at"`
	// FailureReason says why the latest sync failed; nil once one succeeds.
	FailureReason *string   `json:"failure_reason"`
	CreatedAt     Timestamp `json:"created_at"`

	Mode              Mode       `json:"-"`
	SiteID            *string    `json:"-"`
	Content           *string    `json:"-"`
	SyncRequestedAt   *Timestamp `json:"-"`
	LastSyncRequestAt Timestamp  `json:"-"`
}
