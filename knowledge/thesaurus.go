package knowledge

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"

	"chatsvc/lang"
)

// thesaurus groups words that customers and help pages use for the same
// thing. It is about the language of support for software in general, not
// about any one product: a question's words are expanded with the others
// of their group, at a lower weight than the words the customer wrote.
var thesaurus = [][]string{
	// The everyday words and abbreviations of customers of a business, first:
	// a word of several groups is searched with the first groups' words.
	{"amex", "american express"},
	{"2fa", "two-factor", "mfa", "authenticator", "two-step"},
	{"sso", "single sign-on", "saml"},
	{"parcel", "package", "consignment", "shipment", "order"},
	{"shipping", "delivery", "postage", "dispatch", "ship", "deliver", "post", "courier"},
	{"cost", "price", "charge", "fee", "pricing", "rate", "much"},
	{"refund", "reimburse", "reimbursement", "repay"},
	{"return", "exchange"},
	{"cancel", "stop", "unsubscribe", "terminate", "end"},
	{"pause", "freeze", "suspend", "skip", "hold"},
	{"trial", "taster"},
	{"deadline", "cut-off", "cutoff"},
	{"theft", "steal", "steals", "stolen", "stole"},
	{"loud", "noise", "noisy"},
	{"doughnut", "donut"},
	{"euro", "euros", "eur", "currency"}, {"dollar", "dollars", "usd", "currency"}, {"sterling", "gbp", "currency"},
	{"reschedule", "rearrange", "rebook", "move", "change"},
	{"voucher", "gift card", "giftcard"},
	{"discount", "coupon", "promo", "concession", "reduction", "half price"},
	{"open", "opening", "hours", "closed", "shut"},
	{"phone", "telephone", "call", "ring"},
	{"subscription", "membership", "plan", "subscribe"},
	{"appointment", "booking", "session", "reservation", "slot", "appt"},
	{"book", "reserve", "booking"},
	{"invoice", "bill", "receipt"},
	{"pay", "payment", "paying"},
	{"payment", "pay", "paypal", "klarna", "afterpay", "clearpay", "bitcoin", "crypto", "cheque", "cash", "apple pay", "google pay"},
	{"delete", "close", "deactivate"},
	{"broken", "damaged", "smashed", "cracked", "faulty", "defective"},
	{"missing", "lost"},
	{"kid", "child", "children", "junior", "son", "daughter"},
	{"parking", "park", "car"},
	{"ev", "electric vehicle", "electric car"},
	{"guarantee", "warranty"},
	{"cat", "pet", "animal"}, // not "dog": a page about dogs does not answer for cats
	{"dog", "pet", "animal"},
	{"track", "tracking", "trace"},
	{"abroad", "international", "overseas", "europe", "eu"},
	{"contact", "reach", "email", "phone"},
	{"wheelchair", "accessible", "accessibility", "step-free", "disabled"},
	{"card", "visa", "mastercard", "debit", "credit"},
	{"team", "colleague", "staff", "employee", "member"},
	{"cheap", "cheaper", "cheapest", "price"},
	{"expire", "expiry", "expiration", "valid", "validity"},
	{"duration", "long", "days", "weeks", "hours", "minutes"},
	{"maximum", "max", "biggest", "largest"},
	{"minimum", "min", "smallest"},
	{"plane", "flight", "fly", "flying", "airline"},
	{"temperature", "temp"},
	{"vegan", "plant-based"},
	{"vegetarian", "veggie"},
	// The past forms of everyday verbs, which the stemmer leaves apart from
	// the verb ("I paid twice" asks about paying).
	{"pay", "paid"}, {"buy", "bought"}, {"send", "sent"}, {"sell", "sold"}, {"bring", "brought"},
	{"break", "broke"}, {"choose", "chose", "chosen"}, {"give", "gave", "given"}, {"write", "wrote", "written"},
	{"forget", "forgot", "forgotten"}, {"steal", "stole", "stolen"}, {"drive", "drove", "driven"},
	{"ride", "rode", "ridden"}, {"teach", "taught"}, {"spend", "spent"}, {"keep", "kept"}, {"think", "thought"},
	{"wear", "wore", "worn"}, {"tear", "tore", "torn"}, {"throw", "threw", "thrown"}, {"grow", "grew", "grown"},
	{"fall", "fell", "fallen"}, {"eat", "ate", "eaten"}, {"come", "came"}, {"run", "ran"}, {"hold", "held"},
	{"hear", "heard"}, {"lend", "lent"}, {"win", "won"}, {"hide", "hid", "hidden"}, {"speak", "spoke", "spoken"},
	{"freeze", "froze", "frozen"}, {"leave", "left"}, {"lose", "lost"}, {"find", "found"}, {"meet", "met"},
	// The words of software and its support.
	{"remove", "delete", "erase", "wipe", "discard", "drop", "purge", "uninstall"},
	{"undo", "revert", "reset", "rollback", "restore", "reverse"},
	{"folder", "directory", "dir"},
	{"copy", "clone", "duplicate", "replicate"},
	{"download", "fetch", "pull", "retrieve"},
	{"upload", "push", "publish", "send"},
	{"rename", "move"},
	{"switch", "checkout", "change"},
	{"label", "tag", "mark"},
	{"compare", "diff", "difference", "comparison"},
	{"repo", "repository", "project"},
	{"config", "configure", "configuration", "settings", "option", "preference"},
	{"info", "information", "details"},
	{"docs", "documentation", "manual"},
	{"combine", "merge", "squash", "join", "integrate"},
	{"change", "modify", "edit", "alter", "amend"},
	{"show", "display", "view", "list", "print"},
	{"search", "grep", "find", "lookup", "locate"},
	{"start", "begin", "launch", "boot", "startup"},
	{"stop", "halt", "kill", "terminate", "quit", "abort"},
	{"error", "failure", "fault"},
	{"fix", "repair", "correct", "resolve"},
	{"mistake", "wrong", "incorrect", "typo"},
	{"password", "pw", "pwd", "passcode", "credential", "passphrase"},
	{"remember", "cache", "store", "save"},
	{"login", "signin", "logon", "authenticate", "log in", "sign in"},
	{"computer", "machine", "host"},
	{"server", "daemon", "service", "host"},
	{"program", "application", "software", "package"},
	{"install", "setup"},
	{"homebrew", "brew"},
	{"language", "locale", "translation"},
	{"keyboard", "keymap"},
	{"encrypt", "encryption", "cipher"},
	{"compress", "compression", "zip", "archive"},
	{"backup", "snapshot"},
	{"picture", "image", "photo"},
	{"schedule", "scheduled", "periodic", "cron", "timer"},
	{"version", "release", "revision"},
	{"changelog", "release notes"},
	{"history", "log", "past"},
	{"ignore", "exclude", "untracked"},
	{"permission", "access", "privilege", "role"},
	{"admin", "administrator", "root", "superuser"},
	{"wifi", "wireless", "wlan"},
	{"email", "mail", "mailbox"},
	{"sync", "synchronize", "mirror"},
	{"disk", "drive", "storage", "space"},
	{"latest", "newest", "recent"},
	{"freeze", "froze", "frozen", "hang", "stuck", "unresponsive"},
	{"crash", "crashes", "segfault"},
	{"debug", "debugger", "troubleshoot", "diagnose"},
	{"compile", "build"},
	{"user", "account"},
	{"account", "acct", "profile"},
	{"person", "author", "contributor", "user"},
	{"name", "username", "identity"},
	{"upgrade", "update"},
	{"convert", "conversion", "transform"},
	{"signature", "sign", "signed", "verify"},
	{"genuine", "authentic", "verify", "trusted"},
	{"check", "verify", "validate"},
	{"printer", "print", "printing"},
	{"automatic", "automatically", "auto", "hook"},
	{"script", "hook", "trigger"},
	{"huge", "large", "big", "enormous"},
	{"fast", "quick", "speed", "performance"},
	{"modified", "changed", "status"},
	{"save", "store", "keep", "commit"},
	{"summary", "summarize", "overview", "statistics"},
	{"tidy", "cleanup", "clean", "prune", "optimize"},
	{"leftover", "untracked", "stale", "unused"},
	{"aside", "stash", "shelve"},
	{"lost", "recover", "rescue"},
	{"temporary", "temp", "tmp"},
	{"visual", "graphical", "gui", "tool"},
	{"conflict", "conflicting", "clash", "exclusive"},
	{"include", "embed", "nested"},
	{"part", "subset", "partial", "sparse"},
	{"whereabouts", "postcode", "directions", "find us"}, // where the business is: a street address (marks.go)
	{"mac", "macos", "os x", "osx"},
	{"outage", "status", "downtime", "incident"},
	{"newline", "eol", "crlf"},
	{"open", "checkout"},
	// The days as a chat shortens them ("sat hours?", "open sun?").
	{"monday", "mon"}, {"tuesday", "tue", "tues"}, {"wednesday", "wed", "weds"},
	{"thursday", "thu", "thur", "thurs"}, {"friday", "fri"}, {"saturday", "sat"}, {"sunday", "sun"},
}

// spans are words that name several others, searched with them but not
// they with it: a page of opening hours says "Saturday", and a question
// about Saturday is not one about Sunday.
var spans = map[string][]string{
	"weekend": {"saturday", "sunday"}, "weekends": {"saturday", "sunday"},
	"weekday": {"monday", "friday"}, "weekdays": {"monday", "friday"},
}

// phrasePairs are expressions of several words and the one word of the
// thesaurus they mean.
var phrasePairs = [][2]string{
	{"get rid of", "remove"}, {"take back", "undo"}, {"take out", "remove"}, {"throw away", "discard"},
	{"log into", "login"}, {"log in", "login"}, {"sign in", "signin"}, {"back up", "backup"},
	{"set up", "setup"}, {"roll back", "rollback"}, {"clean up", "cleanup"}, {"wi-fi", "wifi"},
	{"e-mail", "email"}, {"up to date", "latest"}, {"start up", "startup"},
	{"line ending", "newline"}, {"line endings", "newline"}, {"put aside", "aside"}, {"set aside", "aside"},
	{"look for", "search"}, {"go back", "undo"}, {"move over to", "switch to"}, {"go to", "switch to"},
	{"tidy up", "tidy"}, {"free up", "free"}, {"stop tracking", "ignore"}, {"work in progress", "aside"},
	{"half-done", "unfinished"}, {"half done", "unfinished"},
	{"send back", "return"}, {"log on", "login"}, {"sign on", "login"},
	{"two factor", "2fa"}, {"two-factor", "2fa"}, {"gift card", "voucher"}, {"gift voucher", "voucher"},
	{"pick up", "collect"}, {"how much", "cost"}, {"how long", "duration"}, {"opening times", "hours"}, {"opening hours", "hours"},
	{"sign up", "register"}, {"where are you based", "whereabouts"}, {"where are you located", "whereabouts"},
	{"where are you", "whereabouts"}, {"where exactly are you", "whereabouts"}, {"where r u", "whereabouts"},
	{"wher are you", "whereabouts"}, {"how do i find you", "whereabouts"}, {"your address", "whereabouts"},
	{"ur address", "whereabouts"}, {"your adress", "whereabouts"}, {"ur adress", "whereabouts"},
	{"whats the address", "whereabouts"}, {"whats the adress", "whereabouts"}, {"what's the address", "whereabouts"},
	{"what's the adress", "whereabouts"}, {"anytime", "any time"},
	{"can we both", "share"}, {"both use", "share"}, {"own login", "share"}, {"own logins", "share"},
	{"own account", "share"}, {"own accounts", "share"}, {"how often should i change", "how often replace"},
	{"how often to change", "how often replace"}, {"how often do i change", "how often replace"}, {"free version", "free plan"}, {"what's new", "changelog"}, {"whats new", "changelog"},
}

// phrases rewrites a question's expressions of several words into the one
// word they mean.
var phrases = func() *strings.Replacer {
	var pairs []string
	for _, p := range phrasePairs {
		pairs = append(pairs, " "+p[0]+" ", " "+p[1]+" ")
	}
	return strings.NewReplacer(pairs...)
}()

// withPhrases puts before the synonyms of each word of phrasePairs the
// expression it stands for, when that has no filler word: pages say
// "roll back" and "set up" more often than "rollback" and "setup", and
// the customer wrote those very words.
func withPhrases(m map[string][]string) map[string][]string {
	for _, p := range phrasePairs {
		if slices.ContainsFunc(strings.Fields(p[0]), func(w string) bool { return filler[lang.English][w] }) ||
			slices.Contains(m[p[1]], p[0]) {
			continue
		}
		m[p[1]] = append([]string{p[0]}, m[p[1]]...)
	}
	return m
}

// filler words are how questions are asked, not what they are about, in
// each language (the others' in thesaurus_langs.go): a page seldom has
// "would like" or "possible", so left in they would weigh as what the pages
// do not cover, and a long question would be declined for its phrasing.
var filler = wordSets(map[string]string{lang.English: `how what whats why when where which who whom whose can could would should
		do does did doing is are was were be been am i me my mine we our you your it its this that these
		those there here a an the and or but if then of to in on at by for with from into about as so
		want wanted need needs needed way ways trying try tried possible please help thanks thank hi hello
		hey know tell any anyone somebody someone something anything get gets got getting able really
		actually just still also some all every much many more most other such only own same again once
		make makes let lets like use using used one thing things stuff way kind sort ok okay will shall
		may might must has have had not no yes very too than them they their he she his her him us
		without going go goes instead already even ever long take takes taking taken took gotten happen happens mean means
		question ask asking now cant can't dont don't wont won't isnt isn't doesnt doesn't didnt didn't
		havent haven't arent aren't wasnt wasn't though although everything nothing nobody everybody
		everyone anybody anywhere somewhere bit basically completely properly literally maybe perhaps yet
		else usually normally typically generally roughly approximately policy policies certain particular exactly specific specifically keeps speak speaks aswell alot whenever
		hasnt shouldnt wouldnt couldnt werent aint theyre youre thats theres hows wheres whos itll youll supposed`})

// QuestionWords lower-cases a question, rewrites phrases and drops filler:
// what remains says what the question is about.
func QuestionWords(text string) []string {
	return words(normalize(text), lang.English)
}

// normalize lower-cases text, collapses its spaces, pads it with one space
// at each end and rewrites the thesaurus's phrases.
func normalize(text string) string {
	t := whereabouts.ReplaceAllString(" "+clean(text)+" ", " whereabouts ")
	return phrases.Replace(isDown.ReplaceAllString(t, " ${1}down outage "))
}

// isDown asks whether the service is down ("is the app down?"), which the
// analysers drop as a stop word: the status page answers.
var isDown = regexp.MustCompile(` ((?:is|are|r|its|it's) (?:\S+ ){0,2})down `)

// whereabouts asks where the business's premises are ("where is the shop
// exactly?"): a street address answers (marks.go).
var whereabouts = regexp.MustCompile(` where(?: is|'s| are) (?:the|your|ur) (?:shop|store|office|offices|studio|clinic|salon|garage|` +
	`workshop|showroom|centre|center|premises|warehouse|depot|hq|headquarters|practice|surgery|school|gym|cafe|café|bakery) `)

// clean lower-cases text and keeps its words (with their apostrophes and
// hyphens) one space apart: "money back?" ends with the expression "money
// back", as a team's synonym or a phrase of the thesaurus.
func clean(text string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-'
	}), " ")
}

// words splits normalized text into its words, without repeats and
// without the language's chatter and filler. A French word keeps what
// follows its elision ("j'aimerais" is "aimerais"), as its analyser does.
func words(t, language string) []string {
	english := language == lang.English
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(t, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127 || r == '\'')
	}) {
		w = strings.TrimSuffix(strings.Trim(w, "'"), "'s")
		if language == "fr" {
			w = lang.Unelided(w)
		}
		if len(w) < 2 || filler[language][w] || chatter[language][w] || seen[w] || english && strings.ContainsRune(w, '\'') {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// Expansions returns the words a question is searched for, and their
// synonyms from the thesaurus (for an English question), as the index
// reads the question: what an answer's sentences are chosen by.
func Expansions(text string) (words, syns []string) {
	for _, t := range questionTerms(text, nil, lang.Detect(text, "")) {
		words = append(words, t.text)
		syns = append(syns, t.syns[:min(len(t.syns), maxSynonyms)]...)
	}
	return words, syns
}

// term is one thing a question asks about: a word, or an expression of the
// team's synonyms, and the words that mean the same, best first.
type term struct {
	text    string
	syns    []string
	context bool      // only in the sentences before the question's own (focus)
	thing   thingRole // in the thing the question asks the business to offer
}

// focusWords are the words of a question's own sentence, when the
// question has a sentence of context before it ("I ordered a plant on
// Sunday and it still says processing. When will it be sent?"): its last
// sentence with a question mark, else its last. A question of one
// sentence may give its context in a clause first ("going away in August,
// can I skip a month?"): then its asking clause. nil when there is no
// context, or the question's own words say too little ("What do I do?").
func focusWords(text, language string) map[string]bool {
	english := language == lang.English
	var sents []string
	start := 0
	for i, r := range text {
		if r == '.' || r == '?' || r == '!' {
			if s := strings.TrimSpace(text[start : i+1]); len(s) > 1 {
				sents = append(sents, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		sents = append(sents, s)
	}
	var focus string
	if len(sents) == 1 {
		focus = askingClause(sents[0], language)
	} else {
		focus = sents[len(sents)-1]
		for i := len(sents) - 1; i >= 0; i-- {
			if strings.HasSuffix(sents[i], "?") {
				focus = sents[i]
				break
			}
		}
	}
	if focus == "" {
		return nil
	}
	t := " " + clean(focus) + " "
	if english {
		t = normalize(focus)
	}
	ws := words(t, language)
	if len(ws) < 2 {
		return nil
	}
	out := map[string]bool{}
	for _, w := range ws {
		out[w] = true
	}
	return out
}

// askingClause is the clause of a sentence that asks, when the sentence
// gives its context first ("going away in August, can I skip a month?"):
// its last clause that opens as a question does, after three words or
// more ("Honestly, is it…" gives no context). "" when none does, or when
// the sentence opens as a question: what follows says more about it.
func askingClause(sentence, language string) string {
	cs := strings.FieldsFunc(sentence, func(r rune) bool { return r == ',' || r == ';' || r == '–' || r == '—' })
	asks := func(c string) bool {
		f := strings.Fields(clean(c))
		return len(f) > 0 && opens[language][f[0]]
	}
	if len(cs) < 2 || asks(cs[0]) {
		return "" // a question first, then more about it
	}
	for i := len(cs) - 1; i >= 1; i-- {
		if asks(cs[i]) {
			if len(strings.Fields(strings.Join(cs[:i], " "))) < 3 {
				return ""
			}
			return cs[i]
		}
	}
	return ""
}

// opens are the words a question opens with, in each language.
var opens = wordSets(map[string]string{
	lang.English: `can could will would do does did is are am was were should shall may might must
		how what when where which who why whats whens wheres hows any anyone isn't won't can't
		don't doesn't`,
	"de": `kann kannst können könnt könnte könnten wird werde werden wäre muss musst müssen darf
		dürfen soll sollte ist sind gibt habt hast haben hat wie was wann wo woher wohin warum wieso
		welche welcher welches welchen wer bekomme bekommt geht klappt reicht`,
	"fr": `est-ce est-il est-elle puis-je peut-on peut-il pouvez-vous pourriez-vous peut comment
		quand où pourquoi quel quelle quels quelles combien faut-il dois-je a-t-il avez-vous
		êtes-vous sont-ils`,
	"es": `puedo puede pueden podría podrían cómo como qué que cuándo cuando dónde donde cuál cuáles
		cuánto cuánta cuántos cuántas hay es son tengo tienen tiene se está están hacéis hacen`,
	"nl": `kan kun kunt kunnen mag mogen moet moeten is zijn hoe wat wanneer waar waarom welke welk
		wie hebben heeft heb hebt krijg krijgt zou zouden wordt worden`,
})

// questionTerms reads a question's terms. The team's synonyms come before
// the thesaurus's: the team knows its customers' words. An expression of
// the team's ("put aside") found in the question is one term, and its
// words are not terms of their own. The thesaurus's phrases and filler
// words are English: a question in another language has the team's
// synonyms, its language's everyday groups (thesaurus_langs.go) and its
// analyser's stop words.
func questionTerms(text string, team [][]string, language string) []term {
	english := language == lang.English
	t := " " + clean(text) + " "
	if english {
		t = normalize(text)
	}
	others := map[string][]string{}
	for _, g := range team {
		for _, e := range g {
			e = clean(e)
			for _, o := range g {
				if o = clean(o); o != e && o != "" {
					others[e] = append(others[e], o)
				}
			}
		}
	}
	var out []term
	for e, syns := range others {
		if strings.Contains(e, " ") && strings.Contains(t, " "+e+" ") {
			out = append(out, term{text: e, syns: syns})
			t = strings.ReplaceAll(t, " "+e+" ", " . ")
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].text < out[j].text })
	for _, w := range words(t, language) {
		out = append(out, term{text: w, syns: append(slices.Clone(others[w]), synonymsIn[language][w]...)})
	}
	if focus := focusWords(text, language); focus != nil {
		for i := range out {
			out[i].context = !focus[out[i].text]
		}
	}
	if thing := offered(text, language); thing != nil {
		for i := range out {
			out[i].thing = thing[out[i].text]
		}
	}
	for i := range out {
		out[i].syns = dedupe(out[i].syns, out[i].text)
		out[i].syns = out[i].syns[:min(len(out[i].syns), maxSynonyms)]
	}
	return out
}

// dedupe keeps the first of each word, and none equal to skip.
func dedupe(ws []string, skip string) []string {
	seen := map[string]bool{skip: true}
	out := ws[:0]
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}
