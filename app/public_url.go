package app

// PublicURL is the server's public root (config public_url), the base of
// links the service hands out.
func (s *Service) PublicURL() string { return s.att.publicURL }
