package knowledge

import "testing"

// A question whether the business offers a thing no page names is matched
// by no page, however well its other words match; one whose thing a page
// names, or that asks about a condition of what the business does, is
// matched as any other.
func TestOfferedThingNoPageNames(t *testing.T) {
	t.Parallel()
	pages := func() []Chunk {
		return []Chunk{
			{URL: "https://x.example/lessons", Title: "Driving lessons",
				Text: "We teach manual and automatic driving lessons, and motorway lessons for new drivers."},
			{URL: "https://x.example/van", Title: "The free van",
				Text: "Use our free van on moving-in day, up to 30 miles from the site."},
			{URL: "https://x.example/fahrrad", Title: "Werkstatt", Lang: "de",
				Text: "Wir reparieren Fahrräder und E-Bikes aller Marken."},
		}
	}
	for question, matched := range map[string]bool{
		"do you teach motorbike lessons":              false,
		"is there wifi at the office":                 false,
		"repariert ihr auch E-Scooter?":               false,
		"do you teach motorway lessons":               true,
		"do you do automatic lessons for beginners?":  true,
		"is there a mileage limit on the free van?":   true, // a condition of the van
		"do you offer any extra lessons on motorways": true, // "extra" names no thing
	} {
		got := searchPages(t, pages(), question)
		if best := bestMatch(got); (best >= 0.35) != matched {
			t.Errorf("%q: best match %.2f, want matched %v", question, best, matched)
		}
	}
}

func bestMatch(ps []Passage) float64 {
	best := 0.0
	for _, p := range ps {
		best = max(best, p.Match)
	}
	return best
}

// What a product can do is asked as what a business offers: a measure no
// page names is one it does not take.
func TestProductCapabilityNoPageNames(t *testing.T) {
	t.Parallel()
	pages := func() []Chunk {
		return []Chunk{
			{URL: "https://x.example/heart", Title: "Heart rate", Text: "The band measures your heart rate every five minutes."},
			{URL: "https://x.example/sleep", Title: "Sleep", Text: "The band tracks your sleep stages overnight."},
			{URL: "https://x.example/sso", Title: "Single sign-on", Text: "Teams sign in with their company's single sign-on."},
		}
	}
	for question, matched := range map[string]bool{
		"does it measure blood pressure":     false,
		"can the band measure glucose?":      false,
		"does it measure heart rate":         true,
		"can the band track my sleep stages": true,
		"does it support SSO?":               true, // the page's "single sign-on"
	} {
		if best := bestMatch(searchPages(t, pages(), question)); (best >= 0.35) != matched {
			t.Errorf("%q: best match %.2f, want matched %v", question, best, matched)
		}
	}
}
