package support

// Visitor is one browser's widget session on a site, in one mode.
type Visitor struct {
	ID         string
	Mode       Mode
	SiteID     string
	ContactID  *string
	PageURL    string // the page the widget was last opened on
	CreatedAt  Timestamp
	LastSeenAt Timestamp
}
