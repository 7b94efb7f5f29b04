package app

import (
	"context"
	"crypto/hmac"
	"encoding/hex"
	"encoding/json"

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
// the site's own server; it then updates the contact like POST /contacts.
// Without a secret the claim cannot be checked, so it is taken as an e-mail
// address left by the visitor: external_id and attributes are refused, an
// existing contact's details are never overwritten, and the answer shows
// only what the visitor sent. Either way the visitor, their conversations
// without a contact, and the contact's last_seen_at are updated.
func (s *Service) IdentifyVisitor(ctx context.Context, v *Visit, in Identify) (*storage.Contact, error) {
	if !in.Email.has() && !in.ExternalID.has() {
		return nil, missing("email")
	}
	if v.Site.IdentitySecret != nil && *v.Site.IdentitySecret != "" {
		return s.identifyVerified(ctx, v, in, *v.Site.IdentitySecret)
	}
	return s.identifyUnverified(ctx, v, in)
}

// UserHash is the user_hash a site's server computes for a visitor.
func UserHash(secret, id string) string {
	return hex.EncodeToString(mac([]byte(secret), id))
}

func (s *Service) identifyVerified(ctx context.Context, v *Visit, in Identify, secret string) (*storage.Contact, error) {
	if !in.UserHash.has() || in.UserHash.V == "" {
		return nil, missing("user_hash")
	}
	claimed := in.Email.V
	if in.ExternalID.has() {
		claimed = in.ExternalID.V
	}
	want := mac([]byte(secret), claimed)
	got, err := hex.DecodeString(in.UserHash.V)
	if err != nil || !hmac.Equal(got, want) {
		return nil, &Error{Kind: Unauthorized, Code: CodeUserHashInvalid, Param: "user_hash",
			Message: "user_hash does not match: compute it on your server as the hex HMAC-SHA256 of external_id (or email) with the site's identity secret."}
	}
	c, _, err := s.UpsertContact(ctx, v.Mode, ContactInput{Email: in.Email, ExternalID: in.ExternalID,
		Name: in.Name, Phone: in.Phone, Attributes: in.Attributes})
	if err != nil {
		return nil, err
	}
	// Linking is a second step: UpsertContact owns its transaction. The
	// contact is read again so a change made in between is kept.
	id := c.ID
	err = s.write(ctx, func(q *storage.Q) error {
		now := s.stamp()
		if err := s.linkVisitor(ctx, q, v, id, now); err != nil {
			return err
		}
		if err := s.markSeen(ctx, q, v.Mode, &id, now); err != nil {
			return err
		}
		c, err = q.Contact(ctx, v.Mode, id)
		return err
	})
	return c, err
}

func (s *Service) identifyUnverified(ctx context.Context, v *Visit, in Identify) (*storage.Contact, error) {
	for param, set := range map[string]bool{"external_id": in.ExternalID.Set, "attributes": in.Attributes.Set} {
		if set {
			return nil, invalid(param, "%s can only be set when the site has an identity secret and the call carries user_hash.", param)
		}
	}
	email, norm, err := normalizeEmail("email", in.Email.V)
	if err != nil {
		return nil, err
	}
	var out *storage.Contact
	err = s.write(ctx, func(q *storage.Q) error {
		now := s.stamp()
		c, err := orNil(q.ContactByEmail(ctx, v.Mode, norm))
		if err != nil {
			return err
		}
		created := c == nil
		if created {
			c = &storage.Contact{ID: NewID(PrefixContact), Object: "contact", Mode: v.Mode, Email: &email,
				Name: in.Name.ptr(), Phone: in.Phone.ptr(), Attributes: map[string]json.RawMessage{},
				CreatedAt: now, UpdatedAt: now}
		}
		c.LastSeenAt = &now
		if created {
			if err := contactConflict(q.InsertContact(ctx, c, &norm)); err != nil {
				return err
			}
			if err := s.emit(ctx, q, v.Mode, EventContactCreated, c.ID, c, now); err != nil {
				return err
			}
		} else {
			if c.Name == nil {
				c.Name = in.Name.ptr()
			}
			if c.Phone == nil {
				c.Phone = in.Phone.ptr()
			}
			if err := q.UpdateContact(ctx, c, emailNorm(c)); err != nil {
				return err
			}
		}
		out = &storage.Contact{ID: c.ID, Object: c.Object, Mode: c.Mode, Email: &email, Name: in.Name.ptr(),
			Phone: in.Phone.ptr(), Attributes: map[string]json.RawMessage{}, LastSeenAt: c.LastSeenAt,
			CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
		return s.linkVisitor(ctx, q, v, c.ID, now)
	})
	return out, err
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
		return found(q.SetSiteIdentitySecret(ctx, siteID, secret), noSuch("site", siteID))
	})
	if err != nil || secret == nil {
		return "", err
	}
	return *secret, nil
}
