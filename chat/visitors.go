package chat

// Visitor is one browser's widget session on a site, in one mode.
type Visitor struct {
	ID        string
	Mode      Mode
	SiteID    string
	ContactID *string
	// ContactVerified tells that the site signed the claim naming the
	// contact (user_hash), so its address is the visitor's own.
	ContactVerified bool
	PageURL         string // the page the widget was last opened on
	CreatedAt       Timestamp
	LastSeenAt      Timestamp
}
