package app

import (
	"context"
	"crypto/hmac"
	"encoding/hex"
	"encoding/json"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Identify is the body of POST /widget/v1/identify.
type Identify struct {
	Email      Field[string]
	ExternalID Field[string]
	Name       Field[string]
	Phone      Field[string]
	Attributes Field[map[string]json.RawMessage]
	UserHash   Field[string]
}

// IdentifyVisitor tells who the visitor is. When the site has an identity
// secret, the claim must carry user_hash, the hex HMAC-SHA256 of
// external_id (or, without one, of email) keyed with that secret, made by
// the site's own server; it then updates the contact like POST /contacts,
// but only ever the contact the hash signs. Without a secret the claim
// cannot be checked, so it is taken as an e-mail address left by the
// visitor: external_id and attributes are refused and an existing contact's
// details are never overwritten. Either way the visitor, their
// conversations without a contact, and the contact's last_seen_at are
// updated, and the answer shows the visitor only what they sent: a
// contact's stored phone and attributes never reach the widget.
func (s *Service) IdentifyVisitor(ctx context.Context, v *Visit, in Identify) (*chat.Contact, error) {
	if !in.Email.has() && !in.ExternalID.has() {
		return nil, missing("email")
	}
	if in.Email.has() {
		var err error
		if in.Email.V, _, err = normalizeEmail("email", in.Email.V); err != nil {
			return nil, err
		}
	}
	verified := v.Site.IdentitySecret != nil && *v.Site.IdentitySecret != ""
	var c *chat.Contact
	var err error
	if verified {
		c, err = s.identifyVerified(ctx, v, in, *v.Site.IdentitySecret)
	} else {
		c, err = s.identifyUnverified(ctx, v, in)
	}
	if err != nil {
		return nil, err
	}
	v.Visitor.ContactID = &c.ID
	return visitorContact(c, in, verified), nil
}

// UserHash is the user_hash a site's server computes for a visitor.
func UserHash(secret, id string) string {
	return hex.EncodeToString(mac([]byte(secret), id))
}

// identifyVerified checks the claim's user_hash and upserts the contact it
// signs. The hash covers external_id when there is one, so the e-mail of the
// same call is unsigned: it never finds a contact, and it is left off when
// another contact holds it, so no one reaches another person's contact by
// naming their address.
func (s *Service) identifyVerified(ctx context.Context, v *Visit, in Identify, secret string) (*chat.Contact, error) {
	if !in.UserHash.has() || in.UserHash.V == "" {
		return nil, missing("user_hash")
	}
	claimed := in.Email.V
	if in.ExternalID.has() {
		claimed = in.ExternalID.V
	}
	got, err := hex.DecodeString(in.UserHash.V)
	if err != nil || !hmac.Equal(got, mac([]byte(secret), claimed)) {
		return nil, &Error{Kind: Unauthorized, Code: CodeUserHashInvalid, Param: "user_hash",
			Message: "user_hash does not match: compute it on your server as the hex HMAC-SHA256 of external_id (or email) with the site's identity secret."}
	}
	ci := ContactInput{Email: in.Email, ExternalID: in.ExternalID, Name: in.Name, Phone: in.Phone, Attributes: in.Attributes}
	var norm string
	if ci.Email.has() {
		norm = lower(ci.Email.V)
	}
	if ci.ExternalID.has() && ci.ExternalID.V == "" {
		return nil, invalid("external_id", "external_id must not be empty.")
	}
	return writeResult(ctx, s, func(q *storage.Q) (*chat.Contact, error) {
		in, norm := ci, norm
		if in.ExternalID.has() && norm != "" {
			held, err := s.emailHeldByOther(ctx, q, v.Mode, norm, in.ExternalID.V)
			if err != nil {
				return nil, err
			}
			if held {
				in.Email, norm = Field[string]{}, ""
			}
		}
		u, err := s.upsertContact(ctx, q, v.Mode, in, norm)
		if err != nil {
			return nil, err
		}
		return u.c, s.identified(ctx, q, v, u.c, true)
	})
}

// emailHeldByOther tells whether a contact other than the one with
// external_id ext has the e-mail address.
func (s *Service) emailHeldByOther(ctx context.Context, q *storage.Q, mode chat.Mode, norm, ext string) (bool, error) {
	c, err := orNil(q.ContactByEmail(ctx, mode, norm))
	if err != nil || c == nil {
		return false, err
	}
	return c.ExternalID == nil || *c.ExternalID != ext, nil
}

func (s *Service) identifyUnverified(ctx context.Context, v *Visit, in Identify) (*chat.Contact, error) {
	for param, set := range map[string]bool{"external_id": in.ExternalID.Set, "attributes": in.Attributes.Set} {
		if set {
			return nil, invalid(param, "%s can only be set when the site has an identity secret and the call carries user_hash.", param)
		}
	}
	email, norm := in.Email.V, lower(in.Email.V)
	return writeResult(ctx, s, func(q *storage.Q) (*chat.Contact, error) {
		now := s.stamp()
		c, err := orNil(q.ContactByEmail(ctx, v.Mode, norm))
		if err != nil {
			return nil, err
		}
		if c == nil {
			c = &chat.Contact{ID: NewID(PrefixContact), Mode: v.Mode, Email: &email,
				Name: in.Name.ptr(), Phone: in.Phone.ptr(), Attributes: map[string]json.RawMessage{},
				CreatedAt: now, UpdatedAt: now}
			if err := contactConflict(q.InsertContact(ctx, c, &norm)); err != nil {
				return nil, err
			}
			if err := s.emit(ctx, q, v.Mode, chat.EventContactCreated, c.ID, c, now); err != nil {
				return nil, err
			}
		} else {
			// An unchecked claim only fills in what the contact lacks.
			c.Name, c.Phone = or(c.Name, in.Name.ptr()), or(c.Phone, in.Phone.ptr())
		}
		return c, s.identified(ctx, q, v, c, false)
	})
}

// identified links the visitor to contact c (verified: by a claim the
// site signed), marks c seen now and saves it.
func (s *Service) identified(ctx context.Context, q *storage.Q, v *Visit, c *chat.Contact, verified bool) error {
	now := s.stamp()
	if err := s.linkVisitor(ctx, q, v, c.ID, verified, now); err != nil {
		return err
	}
	c.LastSeenAt = &now
	return q.UpdateContact(ctx, c, emailNorm(c))
}

// visitorContact is the contact as the widget may show it: its identity,
// with the phone and attributes the visitor sent in place of those stored.
// An unverified visitor also sees only the e-mail and name they sent.
func visitorContact(c *chat.Contact, in Identify, verified bool) *chat.Contact {
	out := *c
	out.Phone = in.Phone.ptr()
	out.Attributes = in.Attributes.V
	if out.Attributes == nil {
		out.Attributes = map[string]json.RawMessage{}
	}
	if !verified {
		out.Email, out.Name = in.Email.ptr(), in.Name.ptr()
	}
	return &out
}

// or returns a unless it is nil, else b.
func or[T any](a, b *T) *T {
	if a != nil {
		return a
	}
	return b
}

// SetIdentitySecret gives a site a new identity secret and returns it; from
// then on its widget's identify calls must carry a matching user_hash.
// clear removes the secret instead.
func (s *Service) SetIdentitySecret(ctx context.Context, siteID string, clear bool) (string, error) {
	var secret *string
	if !clear {
		v := "isk_" + RandomToken(40)
		secret = &v
	}
	err := s.write(ctx, func(q *storage.Q) error {
		return found(q.SetSiteIdentitySecret(ctx, siteID, secret, s.stamp()), noSuch("site", siteID))
	})
	if err != nil || secret == nil {
		return "", err
	}
	return *secret, nil
}
