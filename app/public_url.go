package app

import "net/url"

// PublicURL is the server's public root (config public_url), the base of
// links the service hands out.
func (s *Service) PublicURL() string { return s.att.publicURL }

// publicHost is the host (and port) of the public URL, "" without one.
func (s *Service) publicHost() string { return hostOf(s.att.publicURL) }

// hostOf is the host (and port) of an absolute URL, "" when it has none.
func hostOf(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Host
	}
	return ""
}
