package lang

import "testing"

func TestDetect(t *testing.T) {
	for _, c := range []struct{ text, hint, want string }{
		{"Kann ich etwas zurückschicken?", "", "de"},
		{"Wie lange dauert die Lieferung?", "en", "de"},
		{"Combien coûte la livraison en Belgique ?", "", "fr"},
		{"¿Puedo pagar con tarjeta?", "", "es"},
		{"Hoe kan ik mijn bestelling volgen?", "", "nl"},
		{"How long does shipping inside Germany take?", "de", "en"},
		{"Where is my tracking number?", "", "en"},
		{"amex?", "fr", "fr"},                 // too short to tell: the widget's locale
		{"PayPal", "pt-BR", "en"},             // an unsupported locale falls back to English
		{"Versand nach Österreich", "", "de"}, // a letter only German writes
		{"Comment compiler un programme en C ?", "", "fr"},
		{"mdp oublié, j'arrive plus à me connecter", "", "fr"},
		{"vous livrez en Belgique svp ?", "", "fr"},
		{"Can I use the café on the first floor?", "", "en"},
	} {
		if got := Detect(c.text, c.hint); got != c.want {
			t.Errorf("Detect(%q, %q) = %q, want %q", c.text, c.hint, got, c.want)
		}
	}
}

func TestBase(t *testing.T) {
	for tag, want := range map[string]string{"fr-CA": "fr", "de": "de", "EN_gb": "en", "pt-BR": "", "": ""} {
		if got := Base(tag); got != want {
			t.Errorf("Base(%q) = %q, want %q", tag, got, want)
		}
	}
}
