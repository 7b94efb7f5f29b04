package assistant

import (
	"context"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"chatsvc/chat"
	"chatsvc/knowledge"
)

// Extractive is the default provider: it needs no network and answers with
// the sentences of the best passage that answer the question, after the
// title of their page.
type Extractive struct {
	MaxChars int // answer length bound; 0 means 450
}

// answerSentences is how many sentences an answer quotes at most: the
// answer is often the sentence beside the one that names the subject.
const answerSentences = 5

// Compose quotes the sentences of the best passage that hold most of the
// question's rarer words: a word every sentence of the passage repeats
// (the page's subject) says little about which sentence answers. A
// sentence of the second passage's best chunk is quoted, after its page's
// title, where it answers much better. It cites every passage given: the
// others are where else to read.
func (e Extractive) Compose(_ context.Context, question string, _ []*chat.Message, passages []knowledge.Passage) (Draft, error) {
	if len(passages) == 0 {
		return Draft{}, nil
	}
	limit := e.MaxChars
	if limit <= 0 {
		limit = 450
	}
	sents, weights, heads := passageSentences(passages[0])
	from := make([]int, len(sents)) // the passage each sentence is of
	if len(passages) > 1 {
		second := passages[1]
		second.More, second.MoreHeadings = nil, nil // its best chunk: its others doubled the work for nothing
		more, w, h := passageSentences(second)
		for i := range w {
			w[i] *= secondShare
		}
		sents, weights, heads = append(sents, more...), append(weights, w...), append(heads, h...)
		from = append(from, slices.Repeat([]int{1}, len(more))...)
	}
	pick := fitting(answering(question, sents, weights, heads), sents, limit-len(passages[0].Title)-2)
	var b strings.Builder
	page := -1
	for _, i := range pick {
		s := sents[i]
		if from[i] != page { // the first sentence quoted of a page follows its title
			page = from[i]
			if t := strings.TrimSpace(passages[page].Title); t != "" && !strings.HasPrefix(s, t) {
				s = t + ": " + s
			}
		}
		if b.Len() > 0 && b.Len()+1+len(s) > limit {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if b.Len()+len(s) > limit {
			s = cut(s, limit-b.Len())
		}
		b.WriteString(s)
	}
	used := make([]int, len(passages))
	for i := range used {
		used[i] = i
	}
	return Draft{Body: b.String(), Used: used, Known: b.Len() > 0}, nil
}

// secondShare is what a sentence of the second passage weighs against one
// of the best: the second page holds the answer when the search ranked it
// just below, but the first is the likelier place. Its sentences also tell
// which of the question's words are rare. (Answer phrase on the
// corpora of docs/assistant.md, with all its chunks: small businesses +13
// of 1,915 at 0.3, +9 at 0.4, +6 at 0.2; help centres +2, developer docs
// +11.)
const secondShare = 0.3

// chunkShare is what a sentence of the page's next best matching chunk
// weighs against one of its best, and so on down the chunks the passage
// carries: the answer may be a few lines further, but the chunk the search
// put first is the likelier place.
const chunkShare = 0.7

// passageSentences are the sentences of a passage and of the further
// chunks of its page it carries, with the weight of each's chunk and the
// heading above it.
func passageSentences(p knowledge.Passage) (sents []string, weights []float64, heads []string) {
	headings := append([]string{p.Heading}, p.MoreHeadings...)
	for k, text := range append([]string{p.Text}, p.More...) {
		for _, s := range sentences(text) {
			sents = append(sents, s)
			weights = append(weights, math.Pow(chunkShare, float64(k)))
			if k < len(headings) {
				heads = append(heads, headings[k])
			} else {
				heads = append(heads, "")
			}
		}
	}
	return sents, weights, heads
}

// synonymShare is what a synonym of a question's word weighs in choosing
// sentences, against the word itself: as in the search.
const synonymShare = 0.6

// headingShare is what a question's word in the heading above a sentence
// weighs for it, against the word in the sentence: a help page's heading
// often asks the question ("Which versions are supported?") and the
// sentence under it answers without repeating it. (Answer phrase on the
// corpora of docs/assistant.md: small businesses +43 of 1,819 at 0.5, +42
// at 0.3, +35 at 0.7; help centres +7, developer docs +13.)
const headingShare = 0.5

// asksHowMuch matches questions that ask for a figure: a price, a length,
// a number of days; their answer is a sentence with a figure in it.
var asksHowMuch = regexp.MustCompile(`(?i)\b(how (much|many|long|soon|often|late|early|far|old)|costs?|prices?|fees?|charges?|` +
	`number|wie (viel|viele|lange|teuer|spät|früh|alt)|wieviel|kostet|kosten|` +
	`combien|prix|tarifs?|cuánto|cuanto|cuántos|precio|hoeveel|hoe lang|prijs|kost|` +
	`expire|expires|expiry|valid|validity|verfällt|verfallen|gültig|expirent?|valable|validité|caduca|válido|geldig|verloopt)\b`)

// asksWhen matches questions about a time or a day, opening hours among
// them; their answer is a sentence with a figure, a day or a month in it.
var asksWhen = regexp.MustCompile(`(?i)\b(when|what time|which days?|hours|opening times|open|opens|closed|` +
	`wann|uhrzeit|öffnungszeiten|geöffnet|offen|quand|quelle heure|horaires?|ouvert|ouverts?|fermé|` +
	`cuándo|horarios?|abierto|abren|wanneer|openingstijden|geopend)\b`)

// when is a sentence that says when: a figure, a day, a month, closed.
var when = regexp.MustCompile(`(?i)\d|\b(mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekdays?|weekends?|` +
	`january|february|march|april|may|june|july|august|september|october|november|december|closed|` +
	`montags?|dienstags?|mittwochs?|donnerstags?|freitags?|samstags?|sonntags?|wochenende|werktags|geschlossen|` +
	`januar|februar|märz|mai|juni|juli|oktober|dezember|` +
	`lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|janvier|février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre|fermée?s?|` +
	`lunes|martes|miércoles|jueves|viernes|sábados?|domingos?|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre|cerrado|` +
	`maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag|januari|februari|maart|mei|augustus|gesloten)\b`)

var figure = regexp.MustCompile(`\d`)

// asksHours matches questions about opening hours; their answer is a
// sentence with a time of day.
var asksHours = regexp.MustCompile(`(?i)\b(hours|opening times|open|opens|close|closes|closing|shut|` +
	`öffnungszeiten|geöffnet|offen|schließt|horaires?|ouvert|ouverts?|ferme|fermez|fermé|horarios?|abierto|abren|cierran|openingstijden|geopend|sluiten)\b`)

// clock is a sentence that says when a place is open: a time of day
// ("08:00", "9am", "5.30 p.m.", "18 Uhr", "9h30"), or that it is closed.
var clock = regexp.MustCompile(`(?i)\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s?(am|pm|a\.m\.|p\.m\.|uhr)(\W|$)|\b\d{1,2}h(\d{2})?\b|` +
	`\b(noon|midday|midnight|closed|geschlossen|fermée?s?|ferme|cerrado|gesloten)\b`)

// asksHowLong matches questions about a length of time; their answer is a
// figure with its unit of time, not any figure (a price, a size).
var asksHowLong = regexp.MustCompile(`(?i)\b(how (long|soon|quickly)|wie (lange|schnell|bald)|combien de temps|en combien|` +
	`cuánto tiempo|cuanto tiempo|hoe (lang|snel))\b`)

// duration is a figure with a unit of time: "2 to 4 working days", "48 hours".
var duration = regexp.MustCompile(`(?i)\d\S*\s+(\S+\s+)?(minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|` +
	`minuten|stunden?|tagen?|wochen?|monaten?|jahren?|werktagen?|heures?|jours?|semaines?|mois|ans|années?|` +
	`minutos?|horas?|días?|semanas?|meses|años?|minuten|uur|dagen|weken|maanden|jaar)\b`)

// asksPrice matches questions about what something costs; their answer is
// a sentence with an amount of money, not any figure (a time, a size).
var asksPrice = regexp.MustCompile(`(?i)(\bhow much|\b(costs?|prices?|fees?|charges?|pricing|expensive|cheap|cheaper)\b|` +
	`\b(kosten|kostet|preis|preise|gebühr|gebühren|teuer|günstig|combien|prix|tarifs?|frais|coûte|cher|` +
	`cuánto|cuanto|precio|coste|cuesta|caro|hoeveel|prijs|kost|kosten|tarief|duur)\b)`)

// money is an amount in a currency: "£4.95", "4,95 £", "€12", "12 EUR".
var money = regexp.MustCompile(`(?i)[£$€]\s?\d|\d\s?[£$€]|\d\s?(eur|euros?|gbp|usd|chf)\b`)

// asksContact matches questions about how to reach the team: by phone,
// e-mail or at an address; their answer is the sentence with the number,
// the address or the street.
var asksContact = regexp.MustCompile(`(?i)\b(phone|telephone|call|ring|number|e-?mail|contact|reach|get hold|address|adress|` +
	`telefon\w*|anrufen|erreichen|adresse|kontakt\w*|appeler|téléphone|joindre|contacter|courriel|numéro|` +
	`teléfono|llamar|correo|dirección|contacto|bellen|telefoon\w*|adres|bereiken)\b`)

// reach is a sentence that says how to reach someone: an e-mail address, a
// phone number, a street with its number.
var reach = regexp.MustCompile(`@|\d[\d ]{5,}\d|\b\d+[a-z]?,? (?:\p{Lu}\p{Ll}+ )+(?:Road|Rd|Street|St|Lane|Avenue|Way|Place|Square|Close|Drive|Row|Terrace)\b|` +
	`\p{Ll}(?:straße|str\.|weg|platz|allee|gasse|damm|ring) \d|\b\d+,? (?:rue|avenue|boulevard|place|quai|chemin|calle|avenida)\b`)

// asksDiscount matches questions about a reduction; their answer names a
// share or an amount.
var asksDiscount = regexp.MustCompile(`(?i)\b(discounts?|reductions?|concessions?|% off|rabatt\w*|ermäßigung\w*|nachlass|` +
	`réductions?|remises?|tarif réduit|descuentos?|korting\w*)\b`)

// share is an amount or a share off: "50%", "£5".
var share = regexp.MustCompile(`(?i)\d\s?%|[£$€]\s?\d|\d\s?[£$€]|\d\s?(eur|euros?)\b`)

// asksHow matches questions that ask how to do something, or whether one
// can: their answer is the step, a sentence that says where to go or what
// to press.
var asksHow = regexp.MustCompile(`(?i)\b(how (do|can|could|would|should|to|does)|can (i|we)|where (do|can) (i|we)|` +
	`wie (kann|können|mache|machen|geht|ändere|lösche|komme)|kann ich|können wir|` +
	`comment|puis-je|je peux|on peut|peut-on|cómo|como puedo|puedo|kan ik|hoe (kan|doe|moet))\b`)

// step matches a sentence that gives a step: a menu path or an
// instruction to go, click, tap, choose or open.
var step = regexp.MustCompile(`(?i)→|›|»| > |\b(go to|click|tap|choose|select|press|` +
	`gehe?|klicke?|tippe?|wähle|öffne|allez|cliquez|appuyez|choisissez|sélectionnez|ouvrez|` +
	`ve a|haz clic|pulsa|elige|selecciona|abre|ga naar|klik|tik|kies|selecteer)\b`)

// figureBonus is what a figure adds to a sentence, in shares of the
// question's weightiest word: more than that word, so "Orders under £50 pay
// £4.95" answers "How much is delivery?" before "Delivery is by courier".
const figureBonus = 1.5

// concreteBonus is what a figure adds to a sentence that holds a word of
// the question when the question asks for no kind of answer in
// particular: "Tell us within 48 hours of delivery" answers "my carafe
// arrived smashed" better than "Accidents happen in transit". (Answer
// phrase on the corpora of docs/assistant.md: small businesses +4 of
// 1,401 at 1.0, +2 at 0.5; developer docs +3, help centres +1 at both.)
const concreteBonus = 1.0

// answering returns, best first, the sentences with the highest sum of
// the weights of the question's terms (and, for less, their synonyms) they
// hold, a term weighing more the fewer sentences have it, times the weight
// of the sentence's chunk; a question that asks how much or when prefers
// the sentences with a figure. With no term in any, the first sentence.
func answering(question string, sents []string, chunk []float64, heads []string) []int {
	if len(sents) == 0 {
		return nil
	}
	words, syns := knowledge.Expansions(question)
	weights := map[string]float64{}
	for _, t := range Terms(strings.Join(syns, " ")) {
		weights[t] = synonymShare
	}
	for _, t := range append(Terms(question), Terms(strings.Join(words, " "))...) {
		weights[t] = 1
	}
	has := make([]map[string]bool, len(sents))
	under := make([]map[string]bool, len(sents)) // the heading's terms the sentence lacks
	df := map[string]int{}
	for i, s := range sents {
		has[i] = map[string]bool{}
		under[i] = map[string]bool{}
		for _, t := range Terms(s) {
			if !has[i][t] {
				has[i][t] = true
				df[t]++
			}
		}
		for _, t := range Terms(heads[i]) {
			if !has[i][t] && !under[i][t] {
				under[i][t] = true
				df[t]++ // a heading's word is as common as the sentences under it
			}
		}
	}
	misspelt(weights, df)
	type scored struct {
		i     int
		score float64
	}
	ranked := make([]scored, len(sents))
	top := 0.0
	for _, t := range slices.Sorted(maps.Keys(weights)) { // in order: the same sums every time
		share := weights[t]
		if df[t] == 0 {
			continue
		}
		w := share * (1 + math.Log(float64(len(sents))/float64(df[t])))
		top = max(top, w)
		for i := range sents {
			if has[i][t] {
				ranked[i].score += w
			} else if under[i][t] {
				ranked[i].score += headingShare * w
			}
		}
	}
	// What answers the question's kind: an amount for a price, a figure
	// for how much or when, a step for how.
	var answers *regexp.Regexp
	switch {
	case asksDiscount.MatchString(question):
		answers = share
	case asksHowLong.MatchString(question) && slices.ContainsFunc(sents, duration.MatchString):
		answers = duration
	case asksPrice.MatchString(question) && slices.ContainsFunc(sents, money.MatchString):
		answers = money
	case asksHours.MatchString(question) && slices.ContainsFunc(sents, clock.MatchString):
		answers = clock
	case asksWhen.MatchString(question):
		answers = when
	case asksContact.MatchString(question):
		answers = reach
	case asksHowMuch.MatchString(question):
		answers = figure
	case asksHow.MatchString(question):
		answers = step
	}
	bonus, anyWord := figureBonus, false
	if answers == nil { // no kind asked: a figure beside a word of the question
		answers, bonus, anyWord = figure, concreteBonus, true
	}
	for i, s := range sents {
		if (!anyWord || ranked[i].score > 0) && answers.MatchString(s) {
			ranked[i].score += bonus * top
		}
	}
	for i := range ranked {
		ranked[i].i = i
		ranked[i].score *= chunk[i]
	}
	sort.SliceStable(ranked, func(a, b int) bool { return ranked[a].score > ranked[b].score })
	var pick []int
	for _, r := range ranked {
		if len(pick) == answerSentences || (r.score == 0 && len(pick) > 0) {
			break
		}
		pick = append(pick, r.i)
	}
	return pick
}

// fitting keeps, best first, the sentences picked that fit in n bytes
// (the best always), and returns them in text order with what the lists
// among them introduce: a reply too long for all of them loses the least
// answering, wherever it stands.
func fitting(pick []int, sents []string, n int) []int {
	var keep []int
	used := 0
	for k, i := range pick {
		if k > 0 && used+1+len(sents[i]) > n {
			continue
		}
		keep = append(keep, i)
		used += 1 + len(sents[i])
	}
	sort.Ints(keep)
	return withLists(sents, keep)
}

// misspelt gives a question's word that no sentence has, misspelt, its
// weight on the sentences' word it meant: the commonest among them.
func misspelt(weights map[string]float64, df map[string]int) {
	var known []string // the sentences' words, once one is needed
	for _, t := range slices.Sorted(maps.Keys(weights)) {
		if df[t] > 0 {
			continue
		}
		if known == nil {
			known = slices.Sorted(maps.Keys(df))
		}
		best := ""
		for _, u := range known {
			if knowledge.Corrects(t, u) && (best == "" || df[u] > df[best]) {
				best = u
			}
		}
		if best != "" && weights[best] < weights[t] {
			weights[best] = weights[t]
		}
	}
}

// withLists adds to the sentences picked the one after each that ends
// with a colon: what it introduces ("you can:") is the answer.
func withLists(sents []string, pick []int) []int {
	out := make([]int, 0, len(pick)+1)
	for k, i := range pick {
		out = append(out, i)
		next := i + 1
		if strings.HasSuffix(sents[i], ":") && next < len(sents) && (k+1 == len(pick) || pick[k+1] != next) {
			out = append(out, next)
		}
	}
	return out
}

// cut shortens s to at most n bytes at a word boundary, with an ellipsis.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	if i := strings.LastIndexByte(s, ' '); i > n/2 {
		s = s[:i]
	}
	return strings.TrimRight(s, " ,;:") + "…"
}
