package web

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
)

// conversationView is the conversation page's data.
type conversationView struct {
	Conv     *chat.Conversation
	Messages []*chat.Message
	Notes    []*chat.Note
	Contact  *chat.Contact
	Members  []*chat.Member
	Assignee *chat.Member
	Canned   []*chat.CannedReply  // offered in the reply box on "/"
	Ticket   string               // the number {{ticket.number}} fills in, or ""
	Groups   []msgGroup           // the transcript, by author and minute
	Previous []*chat.Conversation // the contact's other conversations, newest first
	Inbox    *inboxView           // the list beside the conversation
	// MaxFileBytes is the largest file the reply box takes (0: none).
	MaxFileBytes int64
}

// msgGroup is one author's messages written within the same minute, shown
// under one avatar and one time.
type msgGroup struct {
	Type, Name string // the author's type and the name shown
	At         chat.Timestamp
	Messages   []*chat.Message
}

// groupMessages puts consecutive messages of one author within the same
// minute together.
func groupMessages(msgs []*chat.Message) []msgGroup {
	var out []msgGroup
	for _, m := range msgs {
		name := authorName(m.Author)
		if n := len(out); n > 0 {
			g := &out[n-1]
			if g.Type == m.Author.Type && g.Name == name &&
				g.At.Time().Truncate(time.Minute).Equal(m.CreatedAt.Time().Truncate(time.Minute)) {
				g.Messages = append(g.Messages, m)
				continue
			}
		}
		out = append(out, msgGroup{Type: m.Author.Type, Name: name, At: m.CreatedAt, Messages: []*chat.Message{m}})
	}
	return out
}

// authorName is the name shown for a message's author.
func authorName(a chat.Author) string {
	if a.Name != nil && *a.Name != "" {
		return *a.Name
	}
	return authorLabels[a.Type]
}

// authorLabels name an author without a name of their own.
var authorLabels = map[string]string{"contact": "Visitor", "bot": "Assistant", "agent": "Team", "system": "System"}

func (d *dashboard) conversation(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	ctx, svc, id := r.Context(), d.h.svc, r.PathValue("id")
	// A notification's link names the conversation's mode: a session
	// showing the other mode's data is offered the switch. A GET changes
	// nothing, so a link from another site cannot switch it.
	if m := r.URL.Query().Get("mode"); (m == string(chat.Live) || m == string(chat.Test)) && m != string(s.Mode) {
		d.render(w, r, http.StatusOK, "switch-mode", view{Title: "Switch to " + m + " data", Session: s,
			Data: map[string]string{"Mode": m, "To": r.URL.Path}})
		return nil
	}
	c, err := svc.Conversation(ctx, s.Mode, id)
	if err != nil {
		return err
	}
	v := conversationView{Conv: c, MaxFileBytes: svc.AttachmentMaxBytes()}
	v.Messages, err = app.Collect(1000, func(lp app.ListParams) (app.List[*chat.Message], error) {
		return svc.Messages(ctx, s.Mode, id, lp)
	})
	if err != nil {
		return err
	}
	if v.Notes, err = svc.Notes(ctx, s.Mode, id); err != nil {
		return err
	}
	if c.ContactID != nil {
		if v.Contact, err = svc.Contact(ctx, s.Mode, *c.ContactID); err != nil && !isKind(err, app.NotFound) {
			return err
		}
	}
	if v.Members, err = svc.Members(ctx); err != nil {
		return err
	}
	if v.Canned, err = d.allCannedReplies(r, s.Mode); err != nil {
		return err
	}
	if v.Ticket, err = svc.CannedTicketNumber(ctx, s.Mode, id); err != nil {
		return err
	}
	for _, m := range v.Members {
		if c.AssigneeID != nil && m.ID == *c.AssigneeID {
			v.Assignee = m
		}
	}
	if c.ContactID != nil {
		prev, err := svc.Conversations(ctx, s.Mode, app.ConversationQuery{ContactID: *c.ContactID,
			ListParams: app.ListParams{Limit: "11"}})
		if err != nil {
			return err
		}
		for _, p := range prev.Data {
			if p.ID != c.ID && len(v.Previous) < 10 {
				v.Previous = append(v.Previous, p)
			}
		}
	}
	v.Groups = groupMessages(v.Messages)
	// Read first, so the list beside it counts this conversation as read.
	if err := svc.MarkConversationRead(ctx, s.Member.ID, c); err != nil {
		return err
	}
	if v.Inbox, err = d.loadInbox(r, s); err != nil {
		return err
	}
	v.Inbox.Open = c.ID
	d.render(w, r, http.StatusOK, "conversation", view{Title: subjectOr(c), Nav: "inbox", Session: s, Data: v, Wide: true})
	return nil
}

func subjectOr(c *chat.Conversation) string {
	if c.Subject != nil {
		return *c.Subject
	}
	return "Conversation"
}

func convPath(id string) string { return "/app/conversations/" + url.PathEscape(id) }

// listPage is where a form of the desk's list leads back to: the desk page
// it was sent from (the list, or a conversation beside it) in its view.
func listPage(r *http.Request) string {
	u, err := url.Parse(r.Referer())
	if err != nil || u.Host != r.Host {
		return "/app/"
	}
	if id, ok := strings.CutPrefix(u.Path, "/app/conversations/"); ok && id != "" && !strings.Contains(id, "/") {
		return convPage(r, id)
	}
	if v := u.Query().Get("view"); v != "all" && slices.Contains(inboxViews, v) {
		return "/app/?view=" + v
	}
	return "/app/"
}

// convPage is where a conversation's form leads back to: its page, with the
// list in the view of the page the form was sent from.
func convPage(r *http.Request, id string) string {
	p := convPath(id)
	if u, err := url.Parse(r.Referer()); err == nil {
		if v := u.Query().Get("view"); v != "all" && slices.Contains(inboxViews, v) {
			p += "?view=" + v
		}
	}
	return p
}

// reply sends the member's message, with the files of the form (a
// multipart one) and attachments given by URL (one per line).
func (d *dashboard) reply(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	id := r.PathValue("id")
	in := app.AgentMessage{Body: app.Value(r.PostFormValue("body")), AuthorID: app.Value(s.Member.ID)}
	files, closeFiles, err := formFiles(r, "files")
	if err != nil {
		return err
	}
	defer closeFiles()
	in.Files = files
	var atts []app.AttachmentInput
	for _, line := range strings.Split(r.PostFormValue("attachments"), "\n") {
		if u := strings.TrimSpace(line); u != "" {
			atts = append(atts, app.AttachmentInput{URL: app.Value(u)})
		}
	}
	if len(atts) > 0 {
		in.Attachments = app.Value(atts)
	}
	if _, err := d.h.svc.ReplyFromDesk(r.Context(), s.Mode, id, in); err != nil {
		return err
	}
	return back(w, r, convPage(r, id), "Reply sent.")
}

// assign gives the conversation to a member ("me" for the signed-in one),
// or to nobody when the field is empty.
func (d *dashboard) assign(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	id, to := r.PathValue("id"), r.PostFormValue("assignee_id")
	in := app.ConversationUpdate{AssigneeID: app.Field[string]{Set: true, Null: true}}
	if to != "" {
		in.AssigneeID = app.Value(memberRef(s, to))
	}
	if _, err := d.h.svc.UpdateConversation(r.Context(), s.Mode, id, in); err != nil {
		return err
	}
	if r.PostFormValue("from") == "inbox" { // assigned in one click from the desk's list
		return back(w, r, listPage(r), "Assignment saved.")
	}
	return back(w, r, convPage(r, id), "Assignment saved.")
}

// memberRef reads a member field of a form: "me" is the signed-in member.
func memberRef(s *app.DashboardSession, v string) string {
	if v == "me" {
		return s.Member.ID
	}
	return v
}

func (d *dashboard) handOff(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	id := r.PathValue("id")
	in := app.Handoff{}
	if note := r.PostFormValue("note"); note != "" {
		in.Note = app.Value(note)
	}
	if to := r.PostFormValue("assignee_id"); to != "" {
		in.AssigneeID = app.Value(memberRef(s, to))
	}
	if _, err := d.h.svc.HandOff(r.Context(), s.Mode, id, in); err != nil {
		return err
	}
	return back(w, r, convPage(r, id), "Conversation handed off.")
}

func (d *dashboard) closeConversation(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	id := r.PathValue("id")
	if _, err := d.h.svc.Close(r.Context(), s.Mode, id); err != nil {
		return err
	}
	return back(w, r, convPage(r, id), "Conversation closed.")
}

// ticketFromConversation opens a ticket for the conversation's contact.
func (d *dashboard) ticketFromConversation(w http.ResponseWriter, r *http.Request, s *app.DashboardSession) error {
	id := r.PathValue("id")
	c, err := d.h.svc.Conversation(r.Context(), s.Mode, id)
	if err != nil {
		return err
	}
	in := app.TicketCreate{Subject: app.Value(r.PostFormValue("subject")), ConversationID: app.Value(id),
		AssigneeID: app.Value(s.Member.ID)}
	if desc := r.PostFormValue("description"); desc != "" {
		in.Description = app.Value(desc)
	}
	if c.ContactID != nil {
		in.ContactID = app.Value(*c.ContactID)
	} else if email := r.PostFormValue("email"); email != "" {
		in.Contact = app.Value(app.ContactRef{Email: app.Value(email)})
	}
	t, err := d.h.svc.CreateTicket(r.Context(), s.Mode, in)
	if err != nil {
		return err
	}
	return back(w, r, ticketPath(t.ID), "Ticket created.")
}
