// Package lang names the languages the assistant reads and answers in, and
// tells which of them a text is written in.
package lang

import (
	"strings"
	"unicode"
)

// English is the language of pages and questions that say nothing else.
const English = "en"

// Supported are the languages the knowledge index analyses and the
// assistant speaks: the widget's locales.
var Supported = []string{"en", "de", "fr", "es", "nl"}

// Base returns the supported language of a BCP 47 tag ("fr-CA" → "fr"),
// or "" when the tag names another language.
func Base(tag string) string {
	base, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
	base, _, _ = strings.Cut(base, "_")
	for _, l := range Supported {
		if base == l {
			return l
		}
	}
	return ""
}

// function words are the commonest words of each language, which every
// sentence of some length holds and which rarely mean anything in another.
var function = map[string]map[string]bool{}

func init() {
	for l, ws := range map[string]string{
		"en": `the and is are was of to you your it this that what how can with for my do does have has not
			where when which will would should could there be from our an at or if i me we they`,
		"de": `der die das und ist sind ich du sie wir ihr mein meine meinen ein eine einen nicht mit wie was wo
			wann kann können muss bei für auf auch es zu im den dem des oder aber wenn ob noch schon gibt
			habe hat haben werden wird bitte danke warum wieviel lieferung bestellung`,
		"fr": `le la les et est sont je tu vous nous il elle mon ma mes un une des du au aux pas avec comment
			quoi où quand peut peux puis pour sur dans ce cette qui que est-ce suis avez ai mais ou si votre
			vos merci bonjour combien pourquoi puis-je dois livraison commande comment quel quelle quels quelles
			entre vers faire mettre peut-on est-ce ça rien plus en svp`,
		"es": `el la los las y es son yo tú usted nosotros mi mis un una unos no con cómo como qué dónde
			cuándo puedo puede para por en este esta que pero si su sus hay tengo tiene gracias hola cuánto cuanto porque envío pedido`,
		"nl": `de het een en is zijn ik jij je u wij we mijn niet met hoe wat waar wanneer kan kun kunt
			voor op ook dit deze dat die van te maar als of er heb heeft hebben wordt bedankt hallo hoeveel waarom bestelling`,
	} {
		function[l] = map[string]bool{}
		for _, w := range strings.Fields(ws) {
			function[l][w] = true
		}
	}
}

// marks are letters that only some of the languages write.
var marks = map[rune]string{'ß': "de", 'ä': "de", 'ö': "de", 'ü': "de", 'ç': "fr", 'è': "fr", 'ê': "fr",
	'à': "fr", 'ù': "fr", 'œ': "fr", 'î': "fr", 'û': "fr", 'ô': "fr", 'â': "fr", 'ë': "fr", 'é': "fr", 'ñ': "es", '¿': "es", '¡': "es", 'á': "es", 'í': "es", 'ó': "es", 'ú': "es"}

// elided reports whether w begins with a French elision: j'arrive, l'adresse.
func elided(w string) bool { return Unelided(w) != w }

// Unelided is w without the French elision it begins with: "j'aimerais"
// is "aimerais", as the French analyser reads it.
func Unelided(w string) string {
	for _, p := range []string{"j'", "l'", "d'", "qu'", "n'", "c'", "s'", "m'", "j’", "l’", "d’", "qu’", "n’", "c’", "s’", "m’"} {
		if strings.HasPrefix(w, p) && len(w) > len(p) {
			return w[len(p):]
		}
	}
	return w
}

// Detect names the supported language text is most likely written in, by
// its function words and the letters only one language uses. A text that
// says too little to tell (a word or two, or a tie) is in the language
// hint names, when supported, else in English.
func Detect(text, hint string) string {
	score := map[string]float64{}
	for _, r := range strings.ToLower(text) {
		if l, ok := marks[r]; ok {
			score[l] += 0.5
		}
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && r != '-' && r != '\'' && r != '’'
	}) {
		if elided(w) {
			score["fr"]++
		}
		for l, set := range function {
			if set[w] {
				score[l]++
			}
		}
	}
	fallback := Base(hint)
	if fallback == "" {
		fallback = English
	}
	best, top, tie := fallback, score[fallback], false
	for _, l := range Supported {
		switch s := score[l]; {
		case s > top:
			best, top, tie = l, s, false
		case s == top && l != best && s > 0:
			tie = true
		}
	}
	if top == 0 || tie && score[fallback] < top {
		return fallback
	}
	return best
}
