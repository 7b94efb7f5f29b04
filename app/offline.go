package app

import (
	"context"
	"fmt"
	"time"

	"chatsvc/chat"
	"chatsvc/storage"
)

// awayReply is what a hand-off outside the site's business hours answers
// in place of the usual one: when the team is back, and that the answer
// will come by e-mail, asking for the address when the visitor left none.
// ok is false while the team is in.
func (s *Service) awayReply(ctx context.Context, q *storage.Q, c *chat.Conversation) (reply string, ok bool, err error) {
	row, err := q.Site(ctx, c.SiteID)
	if err != nil {
		return "", false, err
	}
	site, err := siteView(row)
	if err != nil {
		return "", false, err
	}
	online, next := site.BusinessHours.Availability(s.now())
	if online {
		return "", false, nil
	}
	back := "Our team is away right now."
	if next != nil {
		loc, _ := time.LoadLocation(site.BusinessHours.Timezone)
		back = fmt.Sprintf("Our team is away right now and back %s.", next.In(loc).Format("Monday 2 January at 15:04 (MST)"))
	}
	var email *string
	if c.ContactID != nil {
		if ct, err := orNil(q.Contact(ctx, c.Mode, *c.ContactID)); err != nil {
			return "", false, err
		} else if ct != nil {
			email = ct.Email
		}
	}
	if email != nil {
		return back + " We'll answer you by e-mail at " + *email + ".", true, nil
	}
	return back + " We'll answer you by e-mail: please leave your e-mail address.", true, nil
}
