package app

import (
	"context"
	"net/url"
	"strings"

	"chatsvc/chat"
)

// Error codes of the widget API.
const (
	CodeVisitorTokenMissing = "visitor_token_missing"
	CodeVisitorTokenInvalid = "visitor_token_invalid"
	CodeOriginNotAllowed    = "origin_not_allowed"
	CodeUserHashInvalid     = "user_hash_invalid"
)

// PrefixVisitor starts visitor ids, which appear only inside visitor tokens.
const PrefixVisitor = "vis_"

// MaxPageURL bounds page_url; browsers rarely send longer addresses.
const MaxPageURL = 2048

// Origin is where a widget request comes from: its Origin header (empty
// when the browser sent none) and the Host it was sent to.
type Origin struct {
	Origin string
	Host   string
}

// allowedFrom refuses a browser request from a page the site does not own.
// Pages on the site's domains or their subdomains may call the widget API, and
// so may pages of this server itself (the demo page). A site without
// domains accepts every origin. Requests without an Origin header (not from
// a browser page) carry no ambient credential, so they are let through.
func allowedFrom(site *chat.Site, o Origin) error {
	if o.Origin == "" {
		return nil
	}
	u, err := url.Parse(o.Origin)
	if err == nil && u.Host != "" && strings.EqualFold(u.Host, o.Host) {
		return nil
	}
	if len(site.Domains) == 0 {
		return nil
	}
	if err == nil && onSiteDomains(site, u.Hostname()) {
		return nil
	}
	return &Error{Kind: Forbidden, Code: CodeOriginNotAllowed,
		Message: "This site's widget cannot be used from " + o.Origin + "."}
}

// onSiteDomains tells whether host is one of the site's domains or a
// subdomain of one.
func onSiteDomains(site *chat.Site, host string) bool {
	host = strings.ToLower(host)
	for _, d := range site.Domains {
		if domain := siteDomain(d); host == domain || strings.HasSuffix(host, "."+domain) {
			return true
		}
	}
	return false
}

// pageOnSite refuses a page_url that is not on the site's domains (when it
// has any) nor on one of ownHosts (this server's: its demo page). The page
// is shown to the team and linked from e-mails, so a visitor must not name
// any page they like.
func pageOnSite(site *chat.Site, page string, ownHosts ...string) error {
	if len(site.Domains) == 0 {
		return nil
	}
	u, err := url.Parse(page)
	if err == nil && onSiteDomains(site, u.Hostname()) {
		return nil
	}
	for _, h := range ownHosts {
		if err == nil && h != "" && strings.EqualFold(u.Host, h) {
			return nil
		}
	}
	return invalid("page_url", "page_url must be a page on one of the site's domains (got '%s').", page)
}

// siteDomain reduces a site's domain as entered ("https://Example.com/") to
// its host name ("example.com").
func siteDomain(d string) string {
	d = strings.ToLower(strings.TrimSpace(d))
	if i := strings.Index(d, "://"); i >= 0 {
		d = d[i+3:]
	}
	d, _, _ = strings.Cut(d, "/")
	if h, _, ok := strings.Cut(d, ":"); ok {
		d = h
	}
	return d
}

// Visit is a visitor authenticated by their token.
type Visit struct {
	Mode    chat.Mode
	Site    *chat.Site
	Visitor *chat.Visitor
}

// Visit authenticates a visitor token and checks the request's origin
// against the token's site.
func (s *Service) Visit(ctx context.Context, token string, from Origin) (*Visit, error) {
	c, err := s.verifyToken(ctx, token)
	if err != nil {
		return nil, err
	}
	bad := &Error{Kind: Unauthorized, Code: CodeVisitorTokenInvalid,
		Message: "This visitor token is no longer valid. Start a new session without it."}
	q := s.db.Read()
	site, err := q.Site(ctx, c.SiteID)
	if err != nil {
		return nil, found(err, bad)
	}
	if err := allowedFrom(site, from); err != nil {
		return nil, err
	}
	v, err := q.Visitor(ctx, c.Mode, c.VisitorID)
	if err != nil {
		return nil, found(err, bad)
	}
	return &Visit{Mode: c.Mode, Site: site, Visitor: v}, nil
}
