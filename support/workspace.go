package support

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
type Site struct {
	ID             string
	Name           string
	Domain         *string
	IdentitySecret *string
	CreatedAt      Timestamp
}

// Member is a team member.
type Member struct {
	ID           string
	Email        string
	Name         string
	PasswordHash *string
	CreatedAt    Timestamp
}
