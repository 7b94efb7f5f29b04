package app

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
	"golang.org/x/text/language"

	"chatsvc/chat"
	"chatsvc/storage"
)

// Site is a website the widget runs on, as the API shows it. Sites are
// shared by both modes. See docs/sites.md.
type Site struct {
	ID            string         `json:"id"`
	Object        string         `json:"object"`
	Name          string         `json:"name"`
	Domains       []string       `json:"domains"`
	BusinessHours *BusinessHours `json:"business_hours"` // nil: always open
	Widget        WidgetSettings `json:"widget"`
	// IdentityVerification tells that an identity secret is set; the
	// secret itself is never shown.
	IdentityVerification bool           `json:"identity_verification"`
	CreatedAt            chat.Timestamp `json:"created_at"`
	UpdatedAt            chat.Timestamp `json:"updated_at"`
}

// WidgetSettings are how a site's widget looks and behaves.
type WidgetSettings struct {
	Color          string `json:"color"`    // #RRGGBB
	Greeting       string `json:"greeting"` // shown in an empty chat
	Position       string `json:"position"` // right or left
	Locale         string `json:"locale"`   // the widget's language
	RequireEmail   bool   `json:"require_email"`
	OfflineMessage string `json:"offline_message"` // shown outside business hours
}

// DefaultWidget is a new site's widget.
var DefaultWidget = WidgetSettings{Color: "#2563EB", Greeting: "Hi! How can we help?", Position: "right",
	Locale: "en", OfflineMessage: "We're away right now. Leave your e-mail address and we'll answer by e-mail."}

// Widget texts exist in these languages; a site may name any other
// language, whose visitors see the texts of its base language, or English.
var Locales = []string{"en", "de", "fr", "es", "nl"}

// Site limits.
const (
	MaxSiteName       = 200
	MaxSiteDomains    = 20
	MaxGreeting       = 500
	MaxOfflineMessage = 1000
	MaxHolidays       = 366
)

// siteView is the API's site from its row.
func siteView(s *chat.Site) (*Site, error) {
	out := &Site{ID: s.ID, Object: "site", Name: s.Name, Domains: s.Domains, Widget: DefaultWidget,
		IdentityVerification: s.IdentitySecret != nil && *s.IdentitySecret != "", CreatedAt: s.CreatedAt,
		UpdatedAt: s.UpdatedAt}
	if out.Domains == nil {
		out.Domains = []string{}
	}
	if len(s.Widget) > 0 {
		if err := json.Unmarshal(s.Widget, &out.Widget); err != nil {
			return nil, err
		}
	}
	if s.BusinessHours != nil {
		out.BusinessHours = &BusinessHours{}
		if err := json.Unmarshal(s.BusinessHours, out.BusinessHours); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Site returns a site, or a NotFound error.
func (s *Service) Site(ctx context.Context, id string) (*Site, error) {
	row, err := s.db.Read().Site(ctx, id)
	if err != nil {
		return nil, found(err, noSuch("site", id))
	}
	return siteView(row)
}

// SiteList lists the sites, newest first.
func (s *Service) SiteList(ctx context.Context, in ListParams) (List[*Site], error) {
	pg, err := in.page()
	if err != nil {
		return List[*Site]{}, err
	}
	rows, err := s.db.Read().SitePage(ctx, pg)
	if err != nil {
		return List[*Site]{}, err
	}
	sites := make([]*Site, len(rows))
	for i, r := range rows {
		if sites[i], err = siteView(r); err != nil {
			return List[*Site]{}, err
		}
	}
	return makeList(sites, pg, func(s *Site) chat.Cursor {
		return chat.Cursor{Key: int64(s.CreatedAt), ID: s.ID}
	}), nil
}

// SiteUpdate is the body of PATCH /sites/{id}. BusinessHours replaces the
// whole schedule (null: always open); Widget changes only the settings given.
type SiteUpdate struct {
	Name          Field[string]
	Domains       Field[[]string]
	BusinessHours Field[HoursInput]
	Widget        Field[WidgetInput]
}

// WidgetInput is the widget object of a site update.
type WidgetInput struct {
	Color, Greeting, Position, Locale, OfflineMessage Field[string]
	RequireEmail                                      Field[bool]
}

// UpdateSite changes a site's name, domains, business hours or widget.
func (s *Service) UpdateSite(ctx context.Context, id string, in SiteUpdate) (*Site, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	var hours *BusinessHours
	if in.BusinessHours.has() {
		var err error
		if hours, err = in.BusinessHours.V.hours(); err != nil {
			return nil, err
		}
	}
	return writeNamed(ctx, s, "update site "+id, func(q *storage.Q) (*Site, error) {
		row, err := q.Site(ctx, id)
		if err != nil {
			return nil, found(err, noSuch("site", id))
		}
		cur, err := siteView(row)
		if err != nil {
			return nil, err
		}
		if in.Name.Set {
			row.Name = strings.TrimSpace(in.Name.V)
		}
		if in.Domains.Set {
			row.Domains = in.Domains.V
		}
		if in.BusinessHours.Set {
			row.BusinessHours = nil
			if !in.BusinessHours.Null {
				row.BusinessHours, _ = json.Marshal(hours)
			}
		}
		if in.Widget.Set {
			row.Widget, _ = json.Marshal(in.Widget.V.apply(cur.Widget))
		}
		row.UpdatedAt = s.stamp()
		if err := q.UpdateSite(ctx, row); err != nil {
			return nil, err
		}
		return siteView(row)
	})
}

var colorRE = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

// check validates an update, naming the offending field; domains are
// normalised to host names on the way.
func (in *SiteUpdate) check() error {
	if in.Name.Set {
		if err := checkLen("name", strings.TrimSpace(in.Name.V), MaxSiteName, true); err != nil {
			return err
		}
	}
	if in.Domains.Set {
		if len(in.Domains.V) > MaxSiteDomains {
			return invalid("domains", "A site can have at most %d domains.", MaxSiteDomains)
		}
		out := make([]string, 0, len(in.Domains.V))
		for i, d := range in.Domains.V {
			d, err := checkDomain("domains."+strconv.Itoa(i), d)
			if err != nil {
				return err
			}
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
		in.Domains.V = out
	}
	if in.Widget.Set {
		return in.Widget.V.check()
	}
	return nil
}

func (w WidgetInput) check() error {
	if w.Color.Set && !colorRE.MatchString(w.Color.V) {
		return invalid("widget.color", "widget.color must be a colour written #RRGGBB (got '%s').", w.Color.V)
	}
	if w.Position.Set {
		if err := oneOf("widget.position", w.Position.V, "right", "left"); err != nil {
			return err
		}
	}
	if w.Locale.Set {
		if tag, err := language.Parse(w.Locale.V); err != nil || tag == language.Und {
			return invalid("widget.locale", "widget.locale must be a language tag such as en, de or pt-BR (got '%s'); "+
				"the widget has texts in %s, and shows others in English.", w.Locale.V, strings.Join(Locales, ", "))
		}
	}
	if err := checkLen("widget.greeting", w.Greeting.V, MaxGreeting, false); err != nil {
		return err
	}
	return checkLen("widget.offline_message", w.OfflineMessage.V, MaxOfflineMessage, false)
}

// apply returns cur with the settings given in w.
func (w WidgetInput) apply(cur WidgetSettings) WidgetSettings {
	set := func(dst *string, f Field[string]) {
		if f.Set {
			*dst = f.V
		}
	}
	set(&cur.Color, w.Color)
	set(&cur.Greeting, w.Greeting)
	set(&cur.Position, w.Position)
	if w.Locale.Set {
		cur.Locale = language.Make(w.Locale.V).String() // "pt_br" is stored as pt-BR
	}
	set(&cur.OfflineMessage, w.OfflineMessage)
	if w.RequireEmail.Set {
		cur.RequireEmail = w.RequireEmail.V
	}
	return cur
}

// checkDomain reduces a domain as entered ("https://Shop.example.com/") to
// its host name, in the ASCII form browsers send in Origin (bücher.example
// is xn--bcher-kva.example), and refuses what is not a domain name: a
// wildcard (subdomains are always included), a lone top-level domain, an
// IP address, an empty or malformed label.
func checkDomain(param, d string) (string, error) {
	host, err := idna.Lookup.ToASCII(siteDomain(d))
	if err != nil || !domainName(host) {
		return "", invalid(param, "%s must be a domain name such as example.com, without * (subdomains are included) (got '%s').", param, d)
	}
	return host, nil
}

// domainName tells a host name of two labels or more (or localhost), each
// of letters, digits and inner hyphens, the last not a number.
func domainName(host string) bool {
	if host == "localhost" {
		return true
	}
	labels := strings.Split(host, ".")
	if len(host) > 253 || len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for _, c := range l {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	last := labels[len(labels)-1]
	return strings.Trim(last, "0123456789") != "" // 127.0.0.1 is an address
}
