package chat

// APIKey is a secret API key's record; the secret itself is kept only hashed.
type APIKey struct {
	ID        string
	Mode      Mode
	Name      *string
	Hash      string
	Hint      string // last characters of the secret, to recognise it
	CreatedAt Timestamp
	RevokedAt *Timestamp
}

// Site is a website the widget runs on. Sites are shared by both modes.
//
// BusinessHours (nil: always open) and Widget are JSON that package app
// reads and writes whole (see app.Site, the API's view of a site).
type Site struct {
	ID             string
	Name           string
	Domains        []string
	BusinessHours  []byte
	Widget         []byte
	IdentitySecret *string
	CreatedAt      Timestamp
	UpdatedAt      Timestamp
}

// Member is a team member.
type Member struct {
	ID           string
	Email        string
	Name         string
	Role         string // RoleOwner or RoleAgent
	PasswordHash *string
	CreatedAt    Timestamp
	// Two-factor sign-in: the TOTP secret once enrolled, the one shown for
	// enrolment until confirmed, and the newest time step a code was used
	// for (a code is taken once).
	TOTPSecret   *string
	TOTPPending  *string
	TOTPLastStep int64
}

// TwoFactor tells whether the member signs in with a second factor.
func (m *Member) TwoFactor() bool { return m.TOTPSecret != nil }

// Member roles: owners also manage the team (invite members, change roles).
const (
	RoleOwner = "owner"
	RoleAgent = "agent"
)
