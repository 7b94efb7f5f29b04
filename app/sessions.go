package app

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// SessionStart is the body of POST /widget/v1/sessions.
type SessionStart struct {
	SiteID       Field[string]
	PageURL      Field[string]
	VisitorToken Field[string]
	Test         Field[bool]
	From         Origin
}

// Session is what a visitor gets when the widget starts.
type Session struct {
	VisitorToken string               `json:"visitor_token"`
	Conversation *VisitorConversation `json:"conversation"`
	Site         *VisitorSite         `json:"site"`
	// AttachmentMaxBytes is the largest file the visitor may upload (0:
	// this server takes no files), so the widget can refuse one at once.
	AttachmentMaxBytes int64 `json:"attachment_max_bytes"`
}

// VisitorSite is what the widget needs to know of its site: whether the
// team is in now, and how to look.
type VisitorSite struct {
	Availability string          `json:"availability"` // online or offline
	NextOpenAt   *chat.Timestamp `json:"next_open_at"` // when offline: when the team is back
	WidgetSettings
}

// visitorSite is the widget's view of site at now.
func visitorSite(site *Site, now time.Time) *VisitorSite {
	v := &VisitorSite{Availability: "online", WidgetSettings: site.Widget}
	if online, next := site.BusinessHours.Availability(now); !online {
		v.Availability = "offline"
		if next != nil {
			t := chat.At(*next)
			v.NextOpenAt = &t
		}
	}
	return v
}

// SiteLook is what the widget shows of a site before any session: its
// colour, position, texts and availability, so the launcher is painted in
// the site's colour from the start without recording a visitor. Returns a
// not-found error for an unknown site and origin_not_allowed for a page
// outside the site's domains.
func (s *Service) SiteLook(ctx context.Context, siteID string, from Origin) (*VisitorSite, error) {
	site, err := s.db.Read().Site(ctx, siteID)
	if err != nil {
		return nil, found(err, noSuch("site", siteID))
	}
	if err := allowedFrom(site, from); err != nil {
		return nil, err
	}
	view, err := siteView(site)
	if err != nil {
		return nil, fmt.Errorf("site look %s: %w", siteID, err)
	}
	return visitorSite(view, s.now()), nil
}

// StartSession starts or resumes a visitor's session. A token from an
// earlier session resumes it (same visitor, same conversation); without
// one a new visitor is made. An identified visitor's contact is marked seen.
func (s *Service) StartSession(ctx context.Context, in SessionStart) (*Session, error) {
	if !in.SiteID.has() || in.SiteID.V == "" {
		return nil, missing("site_id")
	}
	if !in.PageURL.has() {
		return nil, missing("page_url")
	}
	if err := checkPageURL(in.PageURL.V); err != nil {
		return nil, err
	}
	mode := chat.Live
	if in.Test.has() && in.Test.V {
		mode = chat.Test
	}
	site, err := s.db.Read().Site(ctx, in.SiteID.V)
	if err != nil {
		return nil, found(err, noSuchRef("site_id", "site", in.SiteID.V))
	}
	if err := allowedFrom(site, in.From); err != nil {
		return nil, err
	}
	if err := pageOnSite(site, in.PageURL.V, in.From.Host, s.publicHost()); err != nil {
		return nil, err
	}
	var returning string // the visitor id of the token, when resuming
	if in.VisitorToken.has() {
		c, err := s.verifyToken(ctx, in.VisitorToken.V)
		if err != nil {
			return nil, err
		}
		if c.SiteID != site.ID || c.Mode != mode {
			return nil, &Error{Kind: Unauthorized, Code: CodeVisitorTokenInvalid, Param: "visitor_token",
				Message: "This visitor token belongs to another site or mode. Start a new session without it."}
		}
		returning = c.VisitorID
	}
	v, err := writeResult(ctx, s, func(q *storage.Q) (*chat.Visitor, error) {
		now := s.stamp()
		if returning == "" {
			v := &chat.Visitor{ID: NewID(PrefixVisitor), Mode: mode, SiteID: site.ID, PageURL: in.PageURL.V,
				CreatedAt: now, LastSeenAt: now}
			return v, q.InsertVisitor(ctx, v)
		}
		v, err := q.Visitor(ctx, mode, returning)
		if err != nil {
			return nil, found(err, &Error{Kind: Unauthorized, Code: CodeVisitorTokenInvalid, Param: "visitor_token",
				Message: "This visitor token is no longer valid. Start a new session without it."})
		}
		v.PageURL, v.LastSeenAt = in.PageURL.V, now
		if err := q.UpdateVisitor(ctx, v); err != nil {
			return nil, err
		}
		return v, s.markSeen(ctx, q, mode, v.ContactID, now)
	})
	if err != nil {
		return nil, err
	}
	token, err := s.signToken(ctx, visitorClaims{Mode: mode, SiteID: site.ID, VisitorID: v.ID})
	if err != nil {
		return nil, err
	}
	c, err := orNil(s.db.Read().LatestConversationOf(ctx, mode, v.ID))
	if err != nil {
		return nil, err
	}
	view, err := siteView(site)
	if err != nil {
		return nil, err
	}
	return &Session{VisitorToken: token, Conversation: visitorConversation(c), Site: visitorSite(view, s.now()),
		AttachmentMaxBytes: s.AttachmentMaxBytes()}, nil
}

// checkPageURL accepts an absolute http(s) URL of reasonable length.
func checkPageURL(v string) error {
	if err := checkLen("page_url", v, MaxPageURL, true); err != nil {
		return err
	}
	if u, err := url.Parse(v); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return invalid("page_url", "page_url must be an absolute http or https URL (got '%s').", v)
	}
	return nil
}

// markSeen sets last_seen_at of an identified visitor's contact.
func (s *Service) markSeen(ctx context.Context, q *storage.Q, mode chat.Mode, contactID *string, now chat.Timestamp) error {
	if contactID == nil {
		return nil
	}
	c, err := orNil(q.Contact(ctx, mode, *contactID))
	if err != nil || c == nil {
		return err
	}
	c.LastSeenAt = &now
	return q.UpdateContact(ctx, c, emailNorm(c))
}

// linkVisitor records that the visitor is the given contact, from now on
// and in their conversations that have no contact yet. It leaves v alone,
// as the write may be replayed: the caller updates v once it commits.
func (s *Service) linkVisitor(ctx context.Context, q *storage.Q, v *Visit, contactID string, verified bool, now chat.Timestamp) error {
	cur, err := q.Visitor(ctx, v.Mode, v.Visitor.ID)
	if err != nil {
		return err
	}
	cur.ContactID, cur.ContactVerified, cur.LastSeenAt = &contactID, verified, now
	if err := q.UpdateVisitor(ctx, cur); err != nil {
		return err
	}
	return q.LinkVisitorConversations(ctx, v.Mode, cur.ID, contactID, now)
}
