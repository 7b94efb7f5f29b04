package chat

// WebhookEndpoint is a URL events are posted to, as the API shows it (the
// secret is shown by package app at creation only).
type WebhookEndpoint struct {
	ID             string                `json:"id"`
	Object         webhookEndpointObject `json:"object"`
	Mode           Mode                  `json:"-"`
	URL            string                `json:"url"`
	Events         []string              `json:"events"`
	Enabled        bool                  `json:"enabled"`
	Description    *string               `json:"description"`
	Secret         string                `json:"-"`
	AfterSeq       int64                 `json:"-"`
	FailingSince   *Timestamp            `json:"-"`
	DisabledReason *string               `json:"-"`
	CreatedAt      Timestamp             `json:"created_at"`
	UpdatedAt      Timestamp             `json:"-"`
}

// WebhookAttempt is one attempt to deliver an event, as the API shows it
// (a "webhook delivery").
type WebhookAttempt struct {
	ID            string                `json:"id"`
	Object        webhookDeliveryObject `json:"object"`
	Mode          Mode                  `json:"-"`
	EndpointID    string                `json:"webhook_endpoint_id"`
	EventID       string                `json:"event_id"`
	EventType     string                `json:"event_type"`
	Attempt       int                   `json:"attempt"`
	Delivered     bool                  `json:"delivered"`
	StatusCode    *int                  `json:"status_code"`
	DurationMS    int64                 `json:"duration_ms"`
	Error         *string               `json:"error"`
	NextAttemptAt *Timestamp            `json:"next_attempt_at"`
	CreatedAt     Timestamp             `json:"created_at"`
}
