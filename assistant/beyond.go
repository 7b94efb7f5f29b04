package assistant

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"chatsvc/knowledge"
)

// Some questions every business is asked are about what its help pages
// seldom hold: working for it, its plans to open somewhere new or to
// bring something out or back, matching another seller's price, sales
// and prices to come, whether one thing is in stock today, its staff's
// favourites, what sells most, calories, the police, access for a
// wheelchair, parking, Wi-Fi, a reward for referrals, work done for the
// customer ("could you design it for us"), buying from the customer, a
// way to pay by name (a page listing the ways answers), a phone number
// to call, another programming language's version of a library, prices
// for the trade, where its office is, pregnancy, bringing a pet along, a
// person by role, how it compares with another; and, by name, a member of
// staff, another product, a shop or an office in a place, a device or a
// system, a language, a country goods are sent to; a discount for a
// group. Their other words ("work", "shop", "Saturday") match pages that
// do not answer them, so they are told apart by what they ask: such a
// question is answered only when a page found speaks of it.
type beyondPages struct {
	asks     *regexp.Regexp // the question asks about it
	mentions *regexp.Regexp // a page speaks of it
}

var beyond = []beyondPages{
	{ // working for the business
		asks: regexp.MustCompile(`(?i)\b(hir+ing|hireing|recruit\w*|vacanc(y|ies)|job (openings?|vacanc\w+)|jobs? (going|available)|` +
			`work (for|with) (you|u)|my (cv|resume|résumé)|apply for (a|any) (job|position)|weekend (work|job)|part[- ]time (work|job)|` +
			`stellt ihr (gerade |noch )?ein|sucht ihr (gerade |noch )?(leute|mitarbeiter\w*|personal|aushilfe\w*|verstärkung)|` +
			`stellenangebot\w*|offene stellen|bewerbung|bewerben|nebenjob|minijob|ausbildungsplatz|` +
			`recrutez|recrutement|embauchez|embauche|offres? d'emploi|candidature|postuler|stages? d'observation|job d'été|` +
			`contratando|contratáis|buscáis personal|ofertas? de (empleo|trabajo)|currículum|` +
			`vacatures?|solliciteren|sollicitatie|bijbaan|zoeken jullie personeel)\b`),
		mentions: regexp.MustCompile(`(?i)\b(hiring|recruit\w*|vacanc(y|ies)|careers?|jobs? (going|openings?|opportunit\w+|offers?|vacanc\w+)|` +
			`(our|open|current) jobs|join (our|the) team|work (for|with) us|` +
			`karriere|stellenangebot\w*|offene stellen|bewerb\w*|recrut\w*|offres? d'emploi|candidat\w*|empleo|vacantes?|trabaja con nosotros|vacatures?|sollicit\w*)\b`),
	},
	{ // opening somewhere new
		asks: regexp.MustCompile(`(?i)\b(plans? (to|for|on) (open|opening|launch\w*|expand\w*)|planning (to|on) (open|opening|expand\w*)|` +
			`(will|would) you (ever )?(open|be opening)|are you (ever )?opening|going to open|` +
			`plant ihr|eröffnet ihr (bald|auch)|vous comptez ouvrir|prévoyez[- ]vous d'ouvrir|pensáis abrir|van jullie .*openen)\b`),
		mentions: regexp.MustCompile(`(?i)\b(coming soon|opening soon|(we're|we are|we'll be) opening|new (shop|store|site|branch|location|studio|clinic|centre|center)|` +
			`demnächst|bald (eröffnen|auch)|neue(r|n)? (filiale|standort|laden)|bientôt|prochainement|próximamente|binnenkort)\b`),
	},
	{ // plans to come: a product, a service, a season's special
		asks: regexp.MustCompile(`(?i)\b(any plans? (to|for|on)|are you planning|do you plan (to|on)|(bring|bringing) back|next version|` +
			`when (will|is) .{1,40} (be )?(released|launched)|release date|will there (ever )?be an? .{1,40}(version|model|edition)|` +
			`(coming out|released|launching) (next|later this|this) (year|month|spring|summer|autumn|fall|winter)|` +
			`habt ihr (vor|geplant)|plant ihr|est-ce que vous prévoyez|vous prévoyez|avez-vous prévu|tenéis pensado|planean|zijn jullie van plan)\b`),
		mentions: regexp.MustCompile(`(?i)\b(coming soon|planned|plans? to|later this year|next year|roadmap|in the future|we're working on|no plans|` +
			`(don't|do not|doesn't|does not) (make|offer|have)|` +
			`will be (available|launching|back)|back (this|next)|bald|geplant|demnächst|bientôt|prochainement|prévu|próximamente|binnenkort|gepland)\b`),
	},
	{ // matching another seller's price
		asks: regexp.MustCompile(`(?i)\b(price[- ]?match\w*|price macth|match (their|the|a|another) (price|cheaper)|preisgarantie|alignez[- ]vous|igualáis el precio)\b`),
		mentions: regexp.MustCompile(`(?i)\b(price[- ]?match\w*|match(es|ing)? (\S+ ){0,2}(prices?|lower)|price (promise|guarantee|pledge)|` +
			`cheaper elsewhere|refund the difference|preisgarantie|alignement (des|de) prix|igualamos)\b`),
	},
	{ // sales and prices to come
		asks: regexp.MustCompile(`(?i)\b(black friday|cyber monday|boxing day sales?|january sales?|(next|upcoming|future) (sale|deal)s?|` +
			`prices? (go|going|rise|rising) up|price (rise|increase)s?|(raise|raising|put up|increase) (the |your )?prices?|` +
			`soldes|preiserhöhung\w*|rebajas)\b`),
		mentions: regexp.MustCompile(`(?i)\b(black friday|cyber monday|(seasonal|annual|summer|winter|january|boxing day) sales?|soldes|rebajas|` +
			`ausverkauf|price (rise|increase)s?|preiserhöhung\w*)\b`),
	},
	{ // the staff's own favourites
		asks: regexp.MustCompile(`(?i)\byour (personal |own )?favou?rites?\b|\bbest \w+ (you've|you have) (ever )?(read|tried|had|seen)\b|` +
			`\beuer lieblings\w*|\bvotre \w+ préférée?\b|\bvuestro \w+ favorit[oa]\b|\bjullie favoriete?\b`),
		mentions: regexp.MustCompile(`(?i)\b(our|staff|team'?s?|my) (own |personal |current )?(favou?rites?|picks?)\b|\bstaff picks?\b|` +
			`\bunsere? lieblings\w*|\bnos (préférés|coups de c(œ|oe)ur)\b|\bnuestros? favorit[oa]s?\b|\bonze favoriete?\b`),
	},
	{ // whether one thing is in stock, or a place free, today
		asks: regexp.MustCompile(`(?i)\b(in stock|back in stock|auf lager|wieder (da|verfügbar|rein)|en stock|de nouveau disponible|` +
			`en existencia|op voorraad|any (spaces|places|spots) (left|available|availible|free))\b`),
		mentions: regexp.MustCompile(`(?i)\b(in stock|out of stock|back in stock|stock levels?|sold out|lager|ausverkauft|vergriffen|` +
			`en stock|rupture|épuisée?s?|agotad[oa]s?|op voorraad|uitverkocht|(spaces?|places?) left|fully booked)\b`),
	},
	{ // where it is made
		asks: regexp.MustCompile(`(?i)\b(made in|manufactured in|produced in|where (is|are) (it|they|the \w+|your \w+) (made|manufactured|produced))\b|` +
			`\b(hergestellt in|fabriqué en|fabricado en|gemaakt in)\b`),
		mentions: regexp.MustCompile(`(?i)\b(made in|made (by|at|here)|manufactur\w*|produced in|sourced from|country of origin|` +
			`hergestellt|fabriqué|fabricado|gemaakt)\b`),
	},
	{ // what sells most
		asks: regexp.MustCompile(`(?i)\b(most popular|best[- ]?sell\w*|bestsell\w*|(sells?|ordered|bought) (the )?most|` +
			`meistverkauft\w*|beliebteste\w*|plus populaires?|le plus (vendu|demandé)e?s?|más (popular|vendid[oa])s?|populairste|best verkochte?)\b`),
		mentions: regexp.MustCompile(`(?i)\b(popular|best[- ]?sell\w*|bestsell\w*|most[- ]loved|customer favou?rites?|` +
			`beliebt\w*|meistverkauft\w*|populaires?|plus vendu|popular(es)?|más vendid|populair\w*|best verkocht)`),
	},
	{ // nutrition
		asks: regexp.MustCompile(`(?i)\b(calories|calorie count|kcal|nutrition(al)? (info\w*|values?|facts)|macros|` +
			`kalorien|nährwert\w*|valeurs? nutritionnelles?|calorías|voedingswaarde)\b`),
		mentions: regexp.MustCompile(`(?i)\b(calories?|kcal|nutrition\w*|kalorien|nährwert\w*|nutritionnel\w*|calorías|voedingswaarde)`),
	},
	{ // the police and the courts
		asks:     regexp.MustCompile(`(?i)\b(police|law enforcement|court orders?|subpoena\w*|warrants?|polizei|gendarmerie|policía|politie)\b`),
		mentions: regexp.MustCompile(`(?i)\b(police|law enforcement|court orders?|subpoena\w*|legal requests?|polizei|gendarmerie|policía|politie)`),
	},
	{ // getting in with a wheelchair, a pram
		asks: regexp.MustCompile(`(?i)\b(wheel\s?ch\w*|accessib\w*|accesib\w*|step[- ]free|disabled (access|parking|toilet)|mobility (scooter|aid)|` +
			`rollstuhl\w*|barrierefrei\w*|fauteuil roulant|pmr|silla de ruedas|rolstoel\w*)\b`),
		mentions: regexp.MustCompile(`(?i)\b(wheel\s?chairs?|accessib\w*|step[- ]free|ramps?|disabled|level access|lifts?|elevators?|ground floor|` +
			`rollstuhl\w*|barrierefrei\w*|fauteuil|pmr|rez-de-chaussée|plain-pied|silla de ruedas|rolstoel\w*)`),
	},
	{ // parking a car
		asks: regexp.MustCompile(`(?i)\b(parking|car park|(anywhere|somewhere|where|place|space) to park|where (can|do|should|could) (i|we|you) park|` +
			`park (the |my |our |a )?(car|van|bike|vehicle|motorhome|caravan)|park (outside|nearby|near|close|on the|at the|in the)|` +
			`parken|parkplatz\w*|garer|stationnement|aparcar|aparcamiento|parkeren)\b`),
		mentions: regexp.MustCompile(`(?i)\b(park\w*|car park|parken|parkplatz\w*|parkhaus|garer|stationnement|aparca\w*|parkeer\w*)`),
	},
	{ // Wi-Fi on the premises
		asks:     regexp.MustCompile(`(?i)\b(wi-?fi|wlan)\b`),
		mentions: regexp.MustCompile(`(?i)\b(wi-?fi|wlan|wireless)`),
	},
	{ // a reward for sending customers
		asks:     regexp.MustCompile(`(?i)\b(referr\w*|refer (a|my|your|other|friends?|someone)|affiliate\w*|parrainage|empfehlungsprogramm|freunde werben|referidos)\b`),
		mentions: regexp.MustCompile(`(?i)\b(refer\w*|affiliate\w*|parrain\w*|empfehl\w*|werben|referid\w*)`),
	},
	{ // a visit to the customer's home or site
		asks: regexp.MustCompile(`(?i)\b(home visits?|house calls?|visit (me|us) at home|come (out )?to (my|our) (home|house|flat|office)|` +
			`come (out|round|over) (and|to) (install|fit|set|fix|repair|look|help)|` +
			`send (an? |someone |somebody )?(engineer|technician|tech|plumber|electrician)?\s?(out|round|over)\b|hausbesuch\w*|à domicile|visita a domicilio)`),
		mentions: regexp.MustCompile(`(?i)\b(home visits?|house calls?|visits? (you |patients )?at home|(in|at) your (home|house|door)|come to (you|your)|` +
			`travel to (you|your|families|customers|clients)|we (\w+ )?(send|visit|come|travel)|` +
			`engineers?|technicians?|call-?out|on[- ]site|hausbesuch\w*|à domicile|a domicilio)`),
	},
	{ // work done for the customer
		asks: regexp.MustCompile(`(?i)\b((someone|anyone|somebody) (from|on|in|at) (your|the) (team|staff|company) (\w+ ){0,2}(come|design|desgin|build|make|create|write|train|set)|` +
			`(could|can|would|will) you (\w+ ){0,2}(design|desgin|build|knit|sew|make|write|create) (\w+ ){0,3}for (me|us)|` +
			`(someone|anyone|somebody) (\w+ ){0,4}to (design|build|code|develop|write|create|set up) (\w+ ){0,3}for (me|us)|` +
			`(do|offer|provide) (\w+ )?(website|web|logo|graphic) design|if i pay you|happy to pay)\b`),
		mentions: regexp.MustCompile(`(?i)\b(done[- ]for[- ]you|on your behalf|we (can |will |'ll )?(design|build|create|make|write|set up|come|train|knit)\w*|` +
			`(design|setup|set-up|onboarding|training|migration|move-in) service|in[- ]person training|on[- ]site|technicians?|installers?|` +
			`(install|fit|set up|build|design|make|move|migrate|write|create)\w* (\w+ ){0,3}for you)`),
	},
	{ // buying from the customer: their old things, a trade-in
		asks: regexp.MustCompile(`(?i)\b((do|would|will) (you|u)( guys)? (ever )?(buy|purchase)|buy (it|them|\w+) (back|off me|from me)|` +
			`trade[- ]?in|part[- ]?exchange|sell (it |them |\w+ )?to you|kauft ihr|ankauf|rachetez[- ]vous|reprise|compráis|kopen jullie|inruil\w*)\b`),
		mentions: regexp.MustCompile(`(?i)\b(we (\w+ )?buy|buy[- ]?back|buy (your|used|second-?hand|old|pre-?owned)|trade[- ]?ins?|part[- ]?exchange|` +
			`sell(ing)? (\w+ ){0,2}(to )?us|swap\w*|ankauf|inzahlungnahme|rachat|reprise|recompra|inruil\w*)`),
	},
	{ // a way to pay by name: a page that lists the ways to pay answers, whether it names that one or not
		asks: regexp.MustCompile(`(?i)\b(paypal|klarna|afterpay|clearpay|affirm|amex|american express|hsa|fsa|apple pay|google pay|` +
			`bitcoin|crypto|venmo|zelle|sofort|ideal)\b`),
		mentions: regexp.MustCompile(`(?i)\b(paypal|klarna|afterpay|clearpay|affirm|visa|mastercard|maestro|american express|amex|` +
			`apple pay|google pay|debit cards?|credit cards?|bank transfer|cash|cheques?|direct debit|we accept|ways to pay|payment methods?|` +
			`kreditkarte|überweisung|carte bancaire|virement|espèces|tarjeta|transferencia|contante|pinpas)\b`),
	},
	{ // calling the team: a phone number
		asks: regexp.MustCompile(`(?i)\b((your|ur|the|a|support|customer service|helpline|contact)\s+(phone|telephone|tel)\s*(number|no|numbr|nubmer|#)|` +
			`(phone|telephone)\s+(number|numbr|nubmer)\s+(for|to)\s+(support|call|reach|help)|number\s+(i|we)\s+can\s+call|` +
			`can\s+(i|we)\s+(call|phone|ring)\s+(you|u|someone|somebody|support|anyone))\b`),
		mentions: regexp.MustCompile(`(?i)(\+?\d[\d ()-]{6,}\d|\b(call|phone|ring) us\b|\btelephone\b|\bby phone\b|\bphone (support|line)\b|\bhelpline\b|\bhotline\b)`),
	},
	{ // another programming language's version of a library
		asks: regexp.MustCompile(`(?i)\b(an?|any)\s+(python|java|javascript|js|node|go|golang|rust|ruby|php|c#|\.net|kotlin|swift)\s+` +
			`(version|port|sdk|client|library|binding|bindings)\b`),
		mentions: regexp.MustCompile(`(?i)\b(python|java|javascript|node\.?js|golang|rust|ruby|php|c#|\.net|kotlin|swift|ports?|bindings|other languages)\b`),
	},
	{ // prices for the trade
		asks: regexp.MustCompile(`(?i)\b(trade (price|pricing|discount|account|rate)s?|wholesale|bulk (discount|order|pricing|price|buy|rate)s?|volume discounts?|` +
			`großhandel\w*|händlerpreis\w*|prix (de gros|revendeur|professionnels?)|grossiste|al por mayor|groothandel\w*)\b`),
		mentions: regexp.MustCompile(`(?i)\b(trade|wholesale|bulk|volume|großhandel\w*|händler\w*|gros|revendeur|professionnels?|por mayor|groothandel\w*)\b`),
	},
	{ // where the business is: an office, a street address
		asks: regexp.MustCompile(`(?i)\b(where (is|are) (your|the) (office|offices|headquarters|hq|premises|shop|store|studio|warehouse)( \w+)?( located| based)?|` +
			`where are you (based|located)|your (office|postal|street) address|wo (ist|sind) (euer|eure|ihr|ihre) (büro|laden|geschäft|sitz)|` +
			`où (est|sont|se trouve|se trouvent) (votre|vos) (bureaux?|magasin|boutique|siège)|dónde (está|están) (vuestra|vuestras|su|sus) (oficinas?|tienda))\b`),
		mentions: regexp.MustCompile(`(?i)\b(\d+[a-z]?,? (\p{Lu}\p{Ll}+ )+(Road|Rd|Street|St|Lane|Avenue|Ave|Way|Place|Square|Close|Drive|Row|Terrace|Boulevard|Blvd)|` +
			`\p{Ll}(straße|str\.|weg|platz|allee|gasse) \d|\d+,? (rue|avenue|boulevard|place|quai|calle|avenida)|` +
			`based in|located in|find us|our (office|shop|studio|warehouse|depot|showroom) (is|in|at)|[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2})`),
	},
	{ // pregnancy
		asks:     regexp.MustCompile(`(?i)\b(pregnan\w*|expecting a baby|schwanger\w*|enceinte|grossesse|embarazada|zwanger\w*)\b`),
		mentions: regexp.MustCompile(`(?i)\b(pregnan\w*|expecting|schwanger\w*|enceinte|grossesse|embaraz\w*|zwanger\w*)`),
	},
	{ // bringing a pet along
		asks: regexp.MustCompile(`(?i)\bbring (my|our|the|a) (dog|cat|pet|puppy)\b|\b(my|our|the) (dog|cat|pet|puppy) (come|join)\b|` +
			`\b(dogs?|pets?) (allowed|welcome)\b|\b(dog|pet)[- ]friendly\b|\b(meinen|unseren) hund mit\b|\bavec (mon|notre) chien\b|` +
			`\bcon (mi|nuestro) perro\b|\bmijn hond mee\b`),
		mentions: regexp.MustCompile(`(?i)\b(dogs?|pets?|hunde?|haustier\w*|chiens?|animaux|perros?|mascotas?|honden?|huisdier\w*)\b`),
	},
	{ // a person by role, the whole question: the lead maintainer, the owner
		asks: regexp.MustCompile(`(?i)^\W*(who(\s+is|'s|\s+are)\s+(the\s+|your\s+|its\s+)?((lead|main|head|chief|current|project)\s+` +
			`(maintainer|maintaner|developer|dev|author)s?|ceo|founders?|owners?|boss|managing director|chief executive)|` +
			`who\s+(owns|founded|started|set up|runs)(\s+[\p{L}\d.'&-]+){0,4})(\s+(of|at|for|behind)(\s+[\p{L}\d.'&-]+){1,4})?\W*$`),
		mentions: regexp.MustCompile(`(?i)\b(lead maintainer|project lead|founders?|founded|co-?founders?|owners?|owned|owns|ceo|` +
			`chief executive|managing director|run by|started by|family[- ]run|family business)\b`),
	},
	{ // how it compares with another business
		asks: regexp.MustCompile(`(?i)\b(better|worse|cheaper) than|\b(faster|slower) than \p{L}|\bcompared? (to|with)\b|\bwhich (one )?(is|'s|would be) (better|best)\b|` +
			`\b(besser|schlechter|günstiger|billiger) als\b|\bim vergleich\b|\b(mieux|moins cher) que\b|\bmeilleure? que\b|\bcomparé\b|` +
			`\b(mejor|peor) que\b|\bcomparado con\b|\b(beter|goedkoper) dan\b|\bvergeleken met\b`),
		mentions: regexp.MustCompile(`(?i)\b(better|cheaper) than|\bcompar(ed|ison|isons|es) (to|with)\b|\bvs\.?\s|\bversus\b|\bunlike\b|` +
			`\b(besser|günstiger) als\b|\bvergleich\w*|\b(mieux|moins cher) que\b|\bmeilleure? que\b|\bmejor que\b|\bbeter dan\b|\bvergelijk\w*`),
	},
}

// staffByName are the ways a question asks after a person by name ("Is Dave still
// working there?", "Ist Herr Maier heute da?", "can I speak to Megan
// again?"): the name is the group.
var staffByName = []*regexp.Regexp{
	regexp.MustCompile(`\b(?:[Ii]s|[Ii]st|[Ee]st-ce que|[Aa]rbeitet|[Dd]oes|[Ww]ill)\s+` + title +
		`(\p{Lu}\p{Ll}+)\s+(?:still|noch|toujours|heute|today|working|around|there|da|in|on)\b`),
	regexp.MustCompile(`\b` + title + `(\p{Lu}\p{Ll}+)\s+(?:est|ist|travaille|arbeitet|trabaja|werkt)\s+(?:toujours|encore|noch|immer noch|todavía|aún|nog)\b`),
	regexp.MustCompile(`\b[Ii]s\s+` + title + `(\p{Lu}\p{Ll}+)\s+(?:from|at|in|on)\s+(?:your|the)\s+(?:\w+\s+){0,3}?(?:still|there|around|working)\b`),
	regexp.MustCompile(`\b[Ii]s\s+` + title + `(\p{Lu}\p{Ll}+)\b[^?.]{0,40}\b(?:today|tomorrow|tonight|this (?:morning|afternoon|week))\b`),
	regexp.MustCompile(`\b` + title + `(\p{Lu}\p{Ll}+)\s+(?:from|at|in|on)\s+(?:your\s+|the\s+)?(?:support|customer (?:service|care|support)|` +
		`the office|reception|the front desk|the team|\w+ care|your team)\b`),
	regexp.MustCompile(`\b[Ii]s\s+(?:the|your|our|that)\s+\p{Ll}+\s+` + title + `(\p{Lu}\p{Ll}+)\s+(?:still|working|in|on|around|there|here)\b`),
	regexp.MustCompile(`\b(?:` + roles + `|member of (?:staff|your team))\s+(?:(?:was|is)\s+)?(?:named|called)\s+` + title + `(\p{Lu}\p{Ll}+)\b`),
	regexp.MustCompile(`\b(?:(?:speak|talk)\s+(?:to|with)|ask\s+for|book\s+(?:in\s+)?with|` +
		`(?:parler|demander)\s+à|sprechen\s+mit|hablar\s+con|spreken\s+met)\s+` + title + `(\p{Lu}\p{Ll}+)\b`),
}

// staffInLowerCase are the ways a chat in lower case asks after a person
// by name ("is alan still the manager", "can i talk to sarah again"): the
// name is the group, unless it is a word for someone unnamed.
var staffInLowerCase = []*regexp.Regexp{
	regexp.MustCompile(`\bis\s+` + lowerTitle + `(\p{Ll}{3,})\s+still\s+(?:the|a|your|our|working|doing|running|managing|teaching|there|around|here|with you)\b`),
	regexp.MustCompile(`\b(?:speak|talk)\s+(?:to|with)\s+` + lowerTitle + `(\p{Ll}{3,})(?:\s*,|\s+(?:from|again|who|in|at)\b)`),
	regexp.MustCompile(`\b(?:` + roles + `)\s+(?:(?:was|is)\s+)?(?:named|called)\s+(\p{Ll}{3,})\b`),
}

// lowerTitle is a title before a name, as chat writes it ("is dr patel
// still there").
const lowerTitle = `(?:(?:dr|mr|mrs|ms|miss)\.?\s+)?`

// roles are the words for someone of the team a customer dealt with.
const roles = `technician|tech|engineer|agent|guy|lady|woman|man|girl|bloke|person|someone|host|instructor|teacher|driver|` +
	`stylist|nurse|rep|representative|advis[eo]r|manager|cleaner|groomer|therapist|consultant`

// unnamed are the words for someone, or something, that name no one.
var unnamed = map[string]bool{"she": true, "him": true, "her": true, "they": true, "them": true, "this": true, "that": true,
	"there": true, "someone": true, "somebody": true, "anyone": true, "anybody": true, "everyone": true, "something": true,
	"anything": true, "support": true, "sales": true, "customer": true, "human": true, "person": true, "people": true,
	"staff": true, "team": true, "agent": true, "manager": true, "you": true, "your": true, "the": true, "our": true}

// integrates is a question whether the product works with another: the
// other is its last group. A page of a product that does names it.
var integrates = regexp.MustCompile(`(?i)\b(?:integrat\w* (?:with|into)|connect(?:s|ed)? (?:to|with)|sync(?:s|ing)? (?:with|to)|` +
	`works? with|integration (?:with|for)|verbinden mit|synchroni[sz]\w* (?:avec|mit)|compatible (?:avec|with))\s+(\p{L}[\p{L}\d.-]*)`)

// notAName are the words after "works with" that name no other product.
var notAName = map[string]bool{"the": true, "a": true, "an": true, "my": true, "our": true, "your": true, "you": true, "that": true,
	"this": true, "it": true, "them": true, "other": true, "others": true, "any": true, "all": true, "me": true, "us": true,
	"le": true, "la": true, "les": true, "un": true, "une": true, "mon": true, "ma": true, "mes": true, "der": true, "die": true,
	"das": true, "dem": true, "den": true, "meinem": true, "meiner": true, "einem": true, "einer": true}

// discountFor are the groups a question asks a discount for ("student
// discount?", "do you give anything off for pensioners?"), each with how
// a page that offers it names the group: a business that has one says
// whom it is for.
var discountFor = []struct{ asks, mentions *regexp.Regexp }{
	{regexp.MustCompile(`(?i)\b(students?|studierende\w*|studenten\w*|étudiant\w*|estudiantes?)\b`),
		regexp.MustCompile(`(?i)\b(student|studierend|studenten|étudiant|estudiante)`)},
	{regexp.MustCompile(`(?i)\b(military|veterans?|armed forces|soldiers?)\b`),
		regexp.MustCompile(`(?i)\b(military|veteran|armed forces|forces)`)},
	{regexp.MustCompile(`(?i)\b(nhs|key workers?|blue light|first responders?|nurses?)\b`),
		regexp.MustCompile(`(?i)\b(nhs|key worker|blue light|first responder|nurse)`)},
	{regexp.MustCompile(`(?i)\b(pensioners?|seniors?|oaps?|retirees?|rentner\w*|senioren|retraités?)\b`),
		regexp.MustCompile(`(?i)\b(pensioner|senior|oap|over[- ]?6\d|retire|rentner|retraité)`)},
	{regexp.MustCompile(`(?i)\b(charit(y|ies)|non-?profits?|not[- ]for[- ]profits?|vereine?|associations?)\b`),
		regexp.MustCompile(`(?i)\b(charit|non-?profit|not[- ]for[- ]profit|verein|association)`)},
	{regexp.MustCompile(`(?i)\b(teachers?|lehrer\w*|enseignants?)\b`),
		regexp.MustCompile(`(?i)\b(teacher|lehrer|enseignant)`)},
	{regexp.MustCompile(`(?i)\b(landlords?|letting agen\w*|property manag\w*|vermieter\w*|propriétaires? bailleurs?)\b`),
		regexp.MustCompile(`(?i)\b(landlord|letting agen|property manag|vermieter|bailleur)`)},
}

// branchIn is a question whether the business has a shop, an office or a
// branch in a place: the place is its group. A business that has one there
// names the place. ("We're opening a second shop in Galway" is the
// customer's.)
var branchIn = regexp.MustCompile(`(?i)\b(?:have|got|is there|are there|any|your|habt ihr|gibt es|euren?|vous avez|avez-vous|votre|vos|hay|tenéis)\s+` +
	`(?:(?:a|an|any|auch|einen?|un|une|des|una?) ){0,2}(?:physical |retail )?` +
	`(?:stores?|shops?|branch(?:es)?|showrooms?|outlets?|locations?|offices?|` +
	`läden|laden|geschäft|filialen?|standort|magasins?|boutiques?|agences?|tiendas?|winkels?)\s+` +
	`(?:in|near|around|at|in der nähe von|en|à|au|près de|cerca de|bij)\s+(\p{L}[\p{L}'-]+)`)

// shipsTo is a question whether the business sends its goods to a
// country: the country is its group. A business that does, or that says
// where it does not, names the country or the bounds of where it ships.
var shipsTo = regexp.MustCompile(`(?i)\b(?:ship|deliver|post|send|dispatch)\w*\s+(?:\w+\s+){0,3}?(?:to|into)\s+(?:the\s+)?` +
	`(uk|united kingdom|britain|england|scotland|wales|ireland|northern ireland|usa|us|united states|america|canada|mexico|brazil|argentina|` +
	`australia|new zealand|japan|china|hong kong|singapore|india|south africa|nigeria|egypt|israel|uae|dubai|turkey|russia|ukraine|poland|` +
	`germany|france|spain|portugal|italy|netherlands|holland|belgium|luxembourg|switzerland|austria|denmark|sweden|norway|finland|` +
	`iceland|greece|cyprus|malta|czechia|czech republic|hungary|romania|bulgaria|croatia|europe|the eu|eu|asia|africa)\b`)

// shipsBounds is what a page says of where it ships besides naming places.
var shipsBounds = regexp.MustCompile(`(?i)\b(only (ship|deliver|send|post)\w* (with)?in|(ship|deliver|send|post)\w* (\w+ ){0,3}only\b|` +
	`(can't|cannot|can not|don't|do not|unable to) (ship|deliver|send|post)|where (do|can) (we|you) (ship|deliver|send|post)|mainland|` +
	`(ship|deliver|send|post)\w* (anywhere|worldwide|internationally|overseas|abroad)|outside (the )?\p{L}+|international (shipping|delivery|orders))`)

// onPlatform is a question about using the product on a device or a
// system by name: the platform is its group. A product that runs there
// names it ("Mac" as "macOS").
var onPlatform = regexp.MustCompile(`(?i)\b(?:on|for|with|from)\s+(?:my\s+|an?\s+|the\s+|our\s+)?` +
	`(iphone|ipad|android|mac|macbook|windows|linux|chromebook|apple watch|smartwatch|kindle|fire tv|apple tv|roku|xbox|playstation|smart tv|blackberry)\b`)

// inLanguage is a question about being served in a language by name: the
// language is its group. A business that serves in it names it.
var inLanguage = regexp.MustCompile(`(?i)\b(?:in|into|to|speak|speaks|speaking|auf|en)\s+` +
	`(english|polish|spanish|german|french|italian|portuguese|welsh|irish|gaelic|arabic|chinese|mandarin|cantonese|japanese|korean|` +
	`russian|ukrainian|romanian|turkish|hindi|urdu|punjabi|bengali|dutch|swedish|norwegian|danish|finnish|greek|hebrew|vietnamese|` +
	`englisch|polnisch|spanisch|französisch|italienisch|türkisch|arabisch|russisch|ukrainisch|` +
	`anglais|allemand|espagnol|italien|polonais|arabe|russe|ukrainien|inglés|alemán|francés|engels|duits|frans)\b`)

// settingLanguage is a question about the language setting ("how do I
// switch the language to German"), which a page about changing it answers
// whichever language it names.
var settingLanguage = regexp.MustCompile(`(?i)\b(languages?|locale|sprache|langue|idioma|taal)\b`)

// byNameRow is a question about a thing by name (its regexp's group): no
// page found that does not name it, or say what instead, answers it.
type byNameRow struct {
	asks    *regexp.Regexp
	also    func(name string) string // other names a page may call it by, as a regexp's alternatives
	word    bool                     // the name is a whole word: "US" is not "use"
	instead *regexp.Regexp           // what a page may say instead of the name
	unless  *regexp.Regexp           // a question that asks about something else then
}

// byName are the questions about another product, a place, a device or a
// system, a language and a country by name.
var byName = []byNameRow{
	{asks: integrates},
	{asks: branchIn},
	{asks: onPlatform, also: func(name string) string {
		if strings.HasPrefix(strings.ToLower(name), "ip") {
			return "|ios|apple" // an iPhone's or iPad's system, its maker
		}
		return ""
	}},
	{asks: inLanguage, unless: settingLanguage},
	{asks: shipsTo, word: true, instead: shipsBounds},
}

// names reports whether a text names name: without hyphens on either side
// ("wifi" is the pages' "Wi-Fi", "e-mail" their "email").
func (n byNameRow) names(name string) func(string) bool {
	alt := regexp.QuoteMeta(unhyphened(name))
	if n.also != nil {
		alt += n.also(name)
	}
	end := ""
	if n.word {
		end = `\b`
	}
	re := regexp.MustCompile(`(?i)\b(` + alt + `)` + end)
	word := strings.ToLower(unhyphened(name))
	return func(s string) bool {
		s = unhyphened(s)
		return re.MatchString(s) || spelt(word, s)
	}
}

// spelt reports whether text has the word that name, misspelt, meant
// ("salesforse" for "Salesforce").
func spelt(name, text string) bool {
	if strings.Contains(name, " ") {
		return false
	}
	return slices.ContainsFunc(strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), func(w string) bool { return knowledge.Corrects(name, w) })
}

// title is a courtesy title before a name.
const title = `(?:(?:Herr|Frau|Mr\.?|Mrs\.?|Ms\.?|Miss|M\.|Mme|Madame|Monsieur|Dr\.?)\s+)?`

// Beyond reports whether the question asks about what help pages seldom
// hold and none of the pages found speaks of it: then no page answers it,
// whatever the gate says.
func Beyond(question string, found []knowledge.Passage) bool {
	for _, b := range beyond {
		if b.asks.MatchString(question) && !anyMentions(found, b.mentions.MatchString) {
			return true
		}
	}
	for _, n := range byName {
		if m := n.asks.FindStringSubmatch(question); m != nil && !notAName[strings.ToLower(m[1])] &&
			(n.unless == nil || !n.unless.MatchString(question)) &&
			!anyMentions(found, n.names(m[1])) && (n.instead == nil || !anyMentions(found, n.instead.MatchString)) {
			return true
		}
	}
	if asksDiscount.MatchString(question) {
		for _, g := range discountFor {
			if g.asks.MatchString(question) && !anyMentions(found, g.mentions.MatchString) {
				return true
			}
		}
	}
	if name := staffAskedFor(question); name != nil {
		return !anyMentions(found, name.MatchString)
	}
	return false
}

// staffAskedFor is how a page names the member of staff a question asks
// after by name (as written, or in any case when the question is in lower
// case), or nil when it asks after no one.
func staffAskedFor(question string) *regexp.Regexp {
	for _, re := range staffByName {
		if m := re.FindStringSubmatch(question); m != nil {
			return regexp.MustCompile(`\b` + regexp.QuoteMeta(m[1]) + `\b`)
		}
	}
	for _, re := range staffInLowerCase {
		if m := re.FindStringSubmatch(question); m != nil && !unnamed[m[1]] {
			return regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(m[1]) + `\b`)
		}
	}
	return nil
}

// anyMentions reports whether the title, heading or text of any passage
// found, its further chunks and their headings among them, satisfies says.
func anyMentions(found []knowledge.Passage, says func(string) bool) bool {
	for _, p := range found {
		if says(p.Title) || says(p.Heading) || says(p.Text) || slices.ContainsFunc(p.More, says) || slices.ContainsFunc(p.MoreHeadings, says) {
			return true
		}
	}
	return false
}

// unhyphened is s without its hyphens.
func unhyphened(s string) string { return strings.ReplaceAll(s, "-", "") }
