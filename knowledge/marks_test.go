package knowledge

import "testing"

// A street with its number or a postcode is an address, in the forms
// help pages write them; a time, a price or a phone number is not.
func TestHoldsAddress(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want bool
	}{
		{"Come and see us at 42 Cathedral Road, Cardiff CF11 9LJ.", true},
		{"Visit us at 7a High St. any day.", true},
		{"Hauptstraße 5, Berlin", true},
		{"au 12 rue de la Paix, Paris", true},
		{"Our postcode is LS6 2PF.", true},
		{"Halden Coffee Systems, Portland, OR 97209", true},
		{"Orders placed before 1pm ship in 3 days.", false},
		{"Call 0113 496 0000 for £25.", false},
		{"We have 2 Park benches.", false},
		{"Open 9 to 5 on Saturday Road trips.", false},
		{"E04 means a heating fault.", false},
	} {
		if got := holdsAddress(c.text); got != c.want {
			t.Errorf("holdsAddress(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
