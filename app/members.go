package app

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// How long the links e-mailed to members work: an invitation waits for a
// week of holidays, a reset is asked for by someone at their screen.
const (
	InvitationTTL    = 7 * 24 * time.Hour
	PasswordResetTTL = time.Hour
)

// The purposes of a member link, and the templates of their e-mails.
const (
	LinkInvitation    = "invitation"
	LinkPasswordReset = "reset"

	MailMemberInvitation = "member_invitation"
	MailPasswordReset    = "password_reset"
)

// CodeOwnerRequired and CodeLinkInvalid are the team management's error codes.
const (
	CodeOwnerRequired = "owner_required"
	CodeLinkInvalid   = "link_invalid"
)

// CreateMemberAs adds a team member with a role: "owner", "agent", or ""
// for owner when the team has no owner yet and agent otherwise, so the
// first member an installation gets can manage the team.
func (s *Service) CreateMemberAs(ctx context.Context, role, email, name, password string) (*chat.Member, error) {
	m, err := s.newMember(role, email, name)
	if err != nil {
		return nil, err
	}
	if password != "" {
		h, err := s.hashPassword(password)
		if err != nil {
			return nil, err
		}
		m.PasswordHash = &h
	}
	return s.insertMember(ctx, m, nil)
}

// newMember checks a new member's fields.
func (s *Service) newMember(role, email, name string) (*chat.Member, error) {
	email, _, err := normalizeEmail("email", email)
	if err != nil {
		return nil, err
	}
	if err := checkLen("name", name, 200, true); err != nil {
		return nil, err
	}
	if role != "" {
		if err := oneOf("role", role, chat.RoleOwner, chat.RoleAgent); err != nil {
			return nil, err
		}
	}
	return &chat.Member{ID: NewID(PrefixMember), Email: email, Name: strings.TrimSpace(name), Role: role,
		CreatedAt: s.stamp()}, nil
}

// insertMember stores m (its role decided when empty) and runs also in
// the same transaction, e.g. to queue its invitation.
func (s *Service) insertMember(ctx context.Context, m *chat.Member, also func(*storage.Q, *chat.Member) error) (*chat.Member, error) {
	out, err := writeResult(ctx, s, func(q *storage.Q) (*chat.Member, error) {
		stored := *m
		if stored.Role == "" {
			n, err := q.CountOwners(ctx)
			if err != nil {
				return nil, err
			}
			stored.Role = chat.RoleAgent
			if n == 0 {
				stored.Role = chat.RoleOwner
			}
		}
		if err := q.InsertMember(ctx, &stored); err != nil {
			return nil, err
		}
		if also != nil {
			return &stored, also(q, &stored)
		}
		return &stored, nil
	})
	if errors.Is(err, storage.ErrConflict) {
		return nil, conflictErr("email", "A team member with e-mail %s exists already.", m.Email)
	}
	return out, err
}

// requireOwner refuses team management to a member who is not an owner.
func requireOwner(by *chat.Member) error {
	if by == nil || by.Role != chat.RoleOwner {
		return &Error{Kind: Forbidden, Code: CodeOwnerRequired, Message: "Only an owner can manage the team."}
	}
	return nil
}

// InviteMember adds a member without a password and e-mails them a link to
// choose one, valid for InvitationTTL. Only an owner may invite.
func (s *Service) InviteMember(ctx context.Context, by *chat.Member, role, email, name string) (*chat.Member, error) {
	if err := requireOwner(by); err != nil {
		return nil, err
	}
	if err := oneOf("role", role, chat.RoleOwner, chat.RoleAgent); err != nil {
		return nil, err
	}
	m, err := s.newMember(role, email, name)
	if err != nil {
		return nil, err
	}
	token := RandomToken(43)
	return s.insertMember(ctx, m, func(q *storage.Q, m *chat.Member) error {
		return s.queueMemberLink(ctx, q, m, token, LinkInvitation, map[string]any{"inviter": by.Name})
	})
}

// RequestPasswordReset e-mails a link to choose a new password, valid for
// PasswordResetTTL, when the address belongs to a member. It answers the
// same whether or not it does, so the form tells no one who is a member.
func (s *Service) RequestPasswordReset(ctx context.Context, email string) error {
	if strings.TrimSpace(email) == "" {
		return missing("email")
	}
	if _, _, err := normalizeEmail("email", email); err != nil {
		return err
	}
	token := RandomToken(43)
	return s.write(ctx, func(q *storage.Q) error {
		m, err := orNil(q.MemberByEmail(ctx, lower(email)))
		if err != nil || m == nil {
			return err
		}
		return s.queueMemberLink(ctx, q, m, token, LinkPasswordReset, nil)
	})
}

// queueMemberLink stores a link's token hash and queues its e-mail, with
// data added to the template's (the link, the member's name, the expiry).
func (s *Service) queueMemberLink(ctx context.Context, q *storage.Q, m *chat.Member, token, purpose string, data map[string]any) error {
	now := s.now()
	ttl, template := InvitationTTL, MailMemberInvitation
	if purpose == LinkPasswordReset {
		ttl, template = PasswordResetTTL, MailPasswordReset
	}
	l := &storage.MemberLink{TokenHash: tokenHash(token), MemberID: m.ID, Purpose: purpose,
		CreatedAt: chat.At(now), ExpiresAt: chat.At(now.Add(ttl))}
	if err := q.InsertMemberLink(ctx, l); err != nil {
		return err
	}
	fields := map[string]any{"name": m.Name, "link": s.MemberLinkURL(token), "expires_at": l.ExpiresAt.Time().UTC().Format("2006-01-02 15:04 UTC")}
	for k, v := range data {
		fields[k] = v
	}
	b, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	return q.InsertMail(ctx, &storage.Mail{ID: NewID(PrefixMail), Mode: chat.Live, Template: template,
		ToEmail: m.Email, ToName: &m.Name, Data: b, NextAttemptAt: chat.At(now), CreatedAt: chat.At(now)})
}

// MemberLinkURL is the dashboard page where a link's token sets a password.
func (s *Service) MemberLinkURL(token string) string {
	return strings.TrimRight(s.PublicURL(), "/") + "/app/password?token=" + token
}

// MemberLink is an open link as its page shows it.
type MemberLink struct {
	Member  *chat.Member
	Purpose string
}

// MemberLinkOf returns the member and purpose of an unused, unexpired
// link; any other token is a CodeLinkInvalid error.
func (s *Service) MemberLinkOf(ctx context.Context, token string) (*MemberLink, error) {
	return openLink(ctx, s.db.Read(), token, s.now())
}

func openLink(ctx context.Context, q *storage.Q, token string, now time.Time) (*MemberLink, error) {
	bad := &Error{Kind: Invalid, Code: CodeLinkInvalid, Param: "token",
		Message: "This link has expired or was used already. Ask for a new one."}
	if token == "" {
		return nil, bad
	}
	l, err := q.MemberLink(ctx, tokenHash(token))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, bad
	} else if err != nil {
		return nil, err
	}
	if l.UsedAt != nil || !now.Before(l.ExpiresAt.Time()) {
		return nil, bad
	}
	m, err := q.Member(ctx, l.MemberID)
	if err != nil {
		return nil, err
	}
	return &MemberLink{Member: m, Purpose: l.Purpose}, nil
}

// UseMemberLink sets the password of the link's member, uses up every open
// link of theirs, ends their sessions and opens a new one; for a member
// with two-factor sign-in it opens none (nil): reading their mail must not
// be enough, so they sign in with the new password and a code.
func (s *Service) UseMemberLink(ctx context.Context, token, password string) (*SignedIn, error) {
	if _, err := s.MemberLinkOf(ctx, token); err != nil {
		return nil, err // before the bcrypt work, which a made-up token does not earn
	}
	h, err := s.hashPassword(password)
	if err != nil {
		return nil, err
	}
	m, err := writeResult(ctx, s, func(q *storage.Q) (*chat.Member, error) {
		now := s.now()
		l, err := openLink(ctx, q, token, now)
		if err != nil {
			return nil, err
		}
		if err := q.SetMemberPassword(ctx, l.Member.ID, h); err != nil {
			return nil, err
		}
		if err := q.UseMemberLinks(ctx, l.Member.ID, chat.At(now)); err != nil {
			return nil, err
		}
		return l.Member, q.EndMemberSessions(ctx, l.Member.ID, chat.At(now))
	})
	if err != nil || m.TwoFactor() {
		return nil, err
	}
	return s.openDashboardSession(ctx, lower(m.Email), m)
}

// SetMemberRole changes a member's role. Only an owner may, and the team
// always keeps at least one owner.
func (s *Service) SetMemberRole(ctx context.Context, by *chat.Member, id, role string) (*chat.Member, error) {
	if err := requireOwner(by); err != nil {
		return nil, err
	}
	if err := oneOf("role", role, chat.RoleOwner, chat.RoleAgent); err != nil {
		return nil, err
	}
	return writeNamed(ctx, s, "set the role of member "+id, func(q *storage.Q) (*chat.Member, error) {
		m, err := q.Member(ctx, id)
		if err != nil {
			return nil, found(err, noSuch("team member", id))
		}
		if m.Role == chat.RoleOwner && role != chat.RoleOwner {
			n, err := q.CountOwners(ctx)
			if err != nil {
				return nil, err
			}
			if n <= 1 {
				return nil, conflictErr("role", "%s is the only owner: make another member an owner first.", m.Name)
			}
		}
		m.Role = role
		return m, q.SetMemberRole(ctx, m.ID, role)
	})
}

// PruneMemberLinks deletes links that expired or were used, which nothing
// can use any more.
func (s *Service) PruneMemberLinks(ctx context.Context) (int64, error) {
	return writeResult(ctx, s, func(q *storage.Q) (int64, error) { return q.DeleteMemberLinks(ctx, s.stamp()) })
}
