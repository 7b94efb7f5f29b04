package knowledge

import (
	"maps"
	"slices"
	"strings"
)

// everyday groups, for the other languages the assistant reads, the words
// a business's customers and its pages use for the same thing: delivery,
// prices, returns, one's account, opening hours. As the English groups,
// they are about the language of customers in general, not any one
// business's.
var everyday = map[string][][]string{
	"de": {
		{"versand", "lieferung", "zustellung", "porto", "versandkosten", "liefern", "verschicken", "schicken"},
		{"kosten", "kostet", "preis", "preise", "gebühr", "gebühren", "teuer"},
		{"rücksendung", "retoure", "zurückschicken", "zurücksenden", "umtausch", "umtauschen"},
		{"erstattung", "rückerstattung", "geld", "erstatten"},
		{"kündigen", "kündigung", "stornieren", "stornierung", "abbestellen", "beenden"},
		{"pausieren", "aussetzen", "unterbrechen", "überspringen", "auslassen"},
		{"gutschein", "geschenkkarte", "geschenkgutschein", "gutscheine"},
		{"passwort", "kennwort", "pw"},
		{"konto", "kundenkonto", "account", "profil"},
		{"paket", "sendung", "päckchen", "bestellung"},
		{"telefon", "anrufen", "telefonisch", "telefonnummer", "nummer"},
		{"öffnungszeiten", "geöffnet", "offen", "auf", "öffnen"},
		{"abo", "abonnement", "mitgliedschaft", "abonnieren"},
		{"bezahlen", "zahlung", "zahlen", "bezahlung", "zahlungsarten"},
		{"zahlung", "bezahlen", "paypal", "klarna", "bitcoin", "sofortüberweisung", "barzahlung"},
		{"kaputt", "beschädigt", "zerbrochen", "defekt", "beschädigung"},
		{"fehlt", "fehlend", "fehlende", "verloren"},
		{"sendungsverfolgung", "tracking", "trackingnummer", "verfolgen", "sendungsnummer"},
		{"abholen", "abholung", "selbstabholung"},
		{"rabatt", "nachlass", "ermäßigung", "gutscheincode"},
		{"laden", "geschäft", "filiale", "shop"},
		{"termin", "buchung", "buchen", "reservierung"},
		{"rechnung", "quittung", "beleg"},
		{"parken", "parkplatz", "parkplätze", "parkhaus", "auto"},
		{"haustier", "hund", "katze", "tier"},
		{"ausland", "international", "europa", "eu"},
		{"rollstuhl", "barrierefrei", "rollstuhlgerecht", "behindert"},
		{"karte", "kreditkarte", "visa", "mastercard", "girocard"},
		{"team", "mitarbeiter", "personal", "angestellte"},
		{"günstig", "günstiger", "billig", "billiger"},
		{"ablaufen", "abgelaufen", "gültig", "gültigkeit", "verfällt"},
		{"kind", "kinder", "junior", "sohn", "tochter"},
		{"garantie", "gewährleistung"},
	},
	"fr": {
		{"livraison", "expédition", "envoi", "livrer", "expédier", "envoyer", "port"},
		{"prix", "coût", "coûte", "tarif", "tarifs", "frais", "combien"},
		{"retour", "retourner", "renvoyer", "échange", "échanger"},
		{"remboursement", "rembourser", "remboursé"},
		{"annuler", "annulation", "résilier", "résiliation", "arrêter"},
		{"suspendre", "pause", "sauter", "interrompre"},
		{"carte cadeau", "bon cadeau", "chèque cadeau"},
		{"mot de passe", "mdp"},
		{"compte", "profil"},
		{"colis", "paquet", "commande", "envoi"},
		{"téléphone", "appeler", "numéro", "tel"},
		{"horaires", "ouvert", "ouverture", "ouvrez", "fermé"},
		{"abonnement", "abonner", "adhésion"},
		{"payer", "paiement", "régler", "cb", "carte"},
		{"paiement", "payer", "paypal", "klarna", "bitcoin", "espèces", "chèque"},
		{"abîmé", "cassé", "endommagé", "détérioré"},
		{"manquant", "manque", "perdu"},
		{"suivi", "suivre", "traçage"},
		{"retrait", "retirer", "récupérer", "chercher"},
		{"réduction", "remise", "promo", "code promo"},
		{"boutique", "magasin"},
		{"rendez-vous", "rdv", "réservation", "réserver"},
		{"facture", "reçu"},
		{"parking", "stationnement", "garer", "stationner", "voiture"},
		{"animal", "animaux", "chien", "chat"},
		{"étranger", "international", "europe", "ue"},
		{"fauteuil roulant", "accessible", "accessibilité", "pmr", "handicapé"},
		{"carte bancaire", "cb", "visa", "mastercard"},
		{"équipe", "personnel", "employé", "salarié"},
		{"moins cher", "pas cher", "bon marché"},
		{"expire", "expiré", "périmé", "valable", "validité"},
		{"enfant", "enfants", "junior", "fils", "fille"},
		{"garantie", "garanti"},
	},
	"es": {
		{"envío", "entrega", "enviar", "entregar", "gastos de envío"},
		{"precio", "coste", "costo", "cuesta", "tarifa", "cuánto"},
		{"devolución", "devolver", "cambio", "cambiar"},
		{"reembolso", "reembolsar"},
		{"cancelar", "cancelación", "anular", "baja"},
		{"contraseña", "clave"},
		{"cuenta", "perfil"},
		{"paquete", "pedido"},
		{"teléfono", "llamar", "número"},
		{"horario", "abierto", "abren", "cerrado"},
		{"suscripción", "suscribir"},
		{"pagar", "pago", "tarjeta"},
		{"pago", "pagar", "paypal", "klarna", "bitcoin", "efectivo", "bizum"},
		{"seguimiento", "rastrear", "localizar"},
		{"descuento", "cupón", "rebaja"},
		{"tarjeta regalo", "vale regalo"},
		{"cita", "reserva", "reservar"},
		{"factura", "recibo"},
		{"aparcamiento", "aparcar", "parking", "estacionamiento", "coche"},
		{"mascota", "perro", "gato", "animal"},
		{"extranjero", "internacional", "europa", "ue"},
		{"silla de ruedas", "accesible", "accesibilidad", "discapacidad"},
		{"visa", "mastercard", "crédito", "débito"},
		{"equipo", "personal", "empleado"},
		{"barato", "más barato", "económico"},
		{"caducar", "caduca", "caducado", "válido", "validez"},
		{"niño", "niños", "niña", "hijo", "hija", "infantil"},
		{"garantía", "garantizado"},
	},
	"nl": {
		{"verzending", "bezorging", "levering", "verzenden", "bezorgen", "leveren", "verzendkosten"},
		{"prijs", "kosten", "kost", "tarief"},
		{"retour", "retourneren", "terugsturen", "ruilen"},
		{"terugbetaling", "terugbetalen", "geld terug"},
		{"opzeggen", "annuleren", "stopzetten"},
		{"wachtwoord", "ww"},
		{"account", "profiel"},
		{"pakket", "zending", "bestelling"},
		{"telefoon", "bellen", "nummer"},
		{"openingstijden", "open", "geopend", "gesloten"},
		{"abonnement", "lidmaatschap"},
		{"betalen", "betaling"},
		{"betaling", "betalen", "paypal", "klarna", "bitcoin", "ideal", "contant"},
		{"volgen", "track", "trace"},
		{"korting", "kortingscode"},
		{"cadeaubon", "cadeaukaart"},
		{"afspraak", "reservering", "boeken"},
		{"factuur", "bon"},
		{"parkeren", "parkeerplaats", "parking", "auto"},
		{"huisdier", "hond", "kat", "dier"},
		{"buitenland", "internationaal", "europa", "eu"},
		{"rolstoel", "toegankelijk", "toegankelijkheid", "gehandicapt"},
		{"kaart", "creditcard", "visa", "mastercard", "pinpas"},
		{"team", "personeel", "medewerker"},
		{"goedkoop", "goedkoper", "voordelig"},
		{"verlopen", "verloopt", "geldig", "geldigheid"},
		{"kind", "kinderen", "junior", "zoon", "dochter"},
		{"garantie", "gegarandeerd"},
	},
}

// everywhere are the groups every language shares: card schemes and
// abbreviations customers write the same in any language.
var everywhere = [][]string{{"amex", "american express"}, {"2fa", "mfa"}}

// synonymsIn maps each word of each language's groups to the others of
// its group: English's from the thesaurus, the others' from everyday.
var synonymsIn = func() map[string]map[string][]string {
	en := withPhrases(groupsOf(thesaurus))
	for w, named := range spans {
		en[w] = append(en[w], named...)
	}
	out := map[string]map[string][]string{"en": en}
	for l, groups := range everyday {
		out[l] = groupsOf(append(slices.Clone(everywhere), groups...))
	}
	return out
}()

// groupsOf maps each word of the groups to the others of its groups, in
// the groups' order.
func groupsOf(groups [][]string) map[string][]string {
	m := map[string][]string{}
	for _, g := range groups {
		for _, w := range g {
			for _, o := range g {
				if o != w {
					m[w] = append(m[w], o)
				}
			}
		}
	}
	return m
}

// chatter are the words of a chat message in each language that say
// nothing about what is asked: politeness, haste, "ok?", "or so". They are
// not stop words of the analysers, and a knowledge base seldom has them,
// so left in they would weigh as what the pages do not cover.
var chatter = wordSets(map[string]string{
	"en": `pls plz asap thx ty btw cheers ok okay anyway basically ur im ive lol vs versus wat wot`,
	"de": `bitte ok okay hallo hi moin danke sowas mal eigentlich einfach gerade eh halt irgendwie bzw`,
	"fr": `svp stp ok okay bonjour bonsoir salut merci bjr slt coucou vraiment bref`,
	"es": `porfa ok okay vale hola gracias favor`,
	"nl": `aub alsjeblieft alstublieft graag hoi hallo bedankt ok okay even gewoon`,
})

// asking are the other languages' filler words (thesaurus.go has
// English's): how a question is asked — wanting, being able, needing,
// knowing, getting, the question words — that their analysers' stop words
// leave in. The lists translate the English one; none of their words is in
// an everyday group above.
var asking = map[string]string{
	"de": `wann warum wieso weshalb wer wen wem woher wohin welchen kannst könnt könnten könntet konnte
		tue tut tun mache macht seid wäre wären möchte möchten möchtest willst brauche brauchen brauchst
		braucht nötig versuche versuchen versucht möglich hilfe helfen helft weiß weißt wissen sag sagen
		jemand jemanden irgendwas irgendwo irgendein bekomme bekommen bekommt kriege kriegen kriegt
		wirklich echt viele mehr meisten eigene gleiche schon bereits lassen lass ding dinge sache sachen
		art darf dürfen müssen mag habt hast ja nein gehen geht gibt statt stattdessen sogar je lange
		dauert dauern passiert passieren bedeutet heißt frage fragen obwohl trotzdem niemand bisschen
		komplett völlig vielleicht gefällt gefallen genau immer ganz gern gerne normalerweise
		meistens gewöhnlich ungefähr etwa`,
	"fr": `comment quand où pourquoi quoi lequel laquelle lesquels lesquelles peux peut pouvez peuvent
		pouvons pourrais pourrait pourriez pourraient puis dois doit devez devrais devrait devriez faut
		fais fait faites faire être avoir veux veut voulez voudrais voudrait voudrions aimerais aimerait
		aimerions souhaite souhaiterais besoin essaie essayer essayé possible aide aider aidez sais
		savoir savez dire dites quelqu quelque chose choses qqn qqch rien obtenir juste encore aussi
		quelques tout tous toute toutes chaque beaucoup plus autre autres seulement propre pareil déjà
		laisser truc trucs genre sorte va vais vont allez aller oui non très trop jamais longtemps
		prendre prend signifie question demander demande maintenant pourtant personne peu complètement
		peut-être sinon ça ca là alors donc bien comme toujours si normalement généralement
		habituellement environ`,
	"es": `cómo como qué por porqué cuándo cuando dónde donde cuál cual cuáles quién quien puedo puede
		pueden puedes podéis podemos podría podrían debo debe debería hago hace hacer soy ser estar hay
		quiero quiere quisiera querría necesito necesita necesitamos intentar intento intenté posible
		ayuda ayudar ayudarme sé saber sabe decir dime alguien algo alguno alguna nada conseguir obtener
		realmente solo sólo todavía también algunos todo todos toda todas cada mucho muchos más otro
		otra otros mismo cosa cosas tipo tengo tiene tienen sí no muy demasiado ir va voy vamos vez ya
		incluso nunca tarda tardar pasa pasar significa pregunta preguntar ahora aunque nadie poco
		completamente quizás tal siempre`,
	"nl": `hoe wat waarom wanneer waar welke welk wie kan kunnen kunt kun zou zouden moet moeten moest doe
		doet doen ben bent wordt worden word wil wilt willen nodig probeer proberen geprobeerd mogelijk
		help helpen hulp weet weten zeggen iemand iets ergens krijgen krijg krijgt echt eigenlijk nog
		ook sommige alle elke veel meer meeste ander andere alleen eigen zelfde weer al ding dingen
		soort mag heb hebt heeft ja nee gaan gaat ga plaats zelfs ooit lang duurt duren gebeurt
		gebeuren betekent vraag vragen nu hoewel niemand iedereen beetje helemaal misschien anders
		altijd`,
}

func init() { maps.Copy(filler, wordSets(asking)) }

// wordSets makes, for each language, the set of the words of its list.
func wordSets(lists map[string]string) map[string]map[string]bool {
	out := make(map[string]map[string]bool, len(lists))
	for l, ws := range lists {
		out[l] = wordSet(ws)
	}
	return out
}

// wordSet is the set of the space-separated words of ws.
func wordSet(ws string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(ws) {
		out[w] = true
	}
	return out
}

// circumstance are the words in which customers tell their circumstances —
// who they are buying for, when, how they feel about it, the country they
// travel to or live in. A page that has
// one is matched on it as on any word; one that no page has is left out of
// the question, where it would weigh as what the pages do not cover: "my
// sister lives in Dublin, how much is delivery?" asks about delivery.
var circumstance = wordSets(map[string]string{
	"en": `sister sisters brother brothers daughter daughters son sons wife husband boyfriend
		girlfriend mum mom mother dad father parents parent kid kids child children baby toddler
		grandma grandmother grandad grandfather grandparents nan friend friends neighbour neighbor
		neighbours colleague colleagues boss family niece nephew aunt uncle cousin flatmate housemate
		today tomorrow yesterday tonight morning afternoon evening night weekend ago last next soon
		recently currently lately earlier later love loves hate worried happy sad annoyed frustrated
		disappointed upset sorry great brilliant lovely amazing terrible awful rough mad excited
		birthday lives living
		thailand spain france italy portugal greece germany turkey egypt india china japan australia
		canada mexico usa america kenya morocco cyprus croatia iceland dubai vietnam bali peru brazil`,
	"de": `schwester schwestern bruder brüder tochter töchter sohn söhne ehefrau ehemann freundin
		freund mutter mama vater papa eltern kind kinder baby kleinkind oma großmutter opa
		großvater großeltern nachbar nachbarin nachbarn kollege kollegin kollegen chef chefin
		familie nichte neffe tante onkel cousin cousine heute gestern abend nacht wochenende
		letzte letzten letzter nächste nächsten bald kürzlich neulich später liebe hasse leider
		toll super schlimm blöd ärgerlich enttäuscht geburtstag wohne wohnt lebe lebt`,
	"fr": `sœur soeur sœurs frère frères fille filles fils femme mari copain copine maman mère papa
		père parents enfant enfants bébé mamie papi grands-parents ami amie amis amies voisin voisine
		voisins collègue collègues patron famille nièce neveu tante oncle cousin cousine demain hier
		soir matin nuit week-end dernier dernière prochain prochaine bientôt récemment actuellement
		tard adore déteste inquiet contente content triste désolé désolée super génial anniversaire
		habite vit`,
	"es": `hermana hermano hija hijo esposa marido novia novio madre mamá padre papá padres niño niña
		niños bebé abuela abuelo abuelos amigo amiga amigos vecino vecina compañero jefe familia
		sobrina sobrino tía tío primo prima hoy mañana ayer tarde noche finde pasado próximo pronto
		recientemente encanta odio preocupado contento triste siento genial cumpleaños vivo vive`,
	"nl": `zus zussen broer broers dochter zoon vrouw man vriendin vriend moeder mama vader papa ouders
		kind kinderen baby oma opa grootouders buurman buurvrouw buren collega baas familie nicht
		neef tante oom vandaag morgen gisteren avond nacht weekend vorige volgende binnenkort
		onlangs later hou haat bezorgd blij verdrietig sorry geweldig jarig verjaardag woon woont`,
})

// circumstantial reports whether word is a word of circumstance, or its
// plural however spelt ("babies", "babys").
func circumstantial(language, word string) bool {
	set := circumstance[language]
	return set[word] || set[strings.TrimSuffix(word, "s")] || set[strings.TrimSuffix(word, "es")] ||
		strings.HasSuffix(word, "ies") && set[strings.TrimSuffix(word, "ies")+"y"]
}

// dealings are a customer's words about dealing with a business: what
// things cost, paying, delivery, refunds, vouchers, warranties, trials.
var dealings = wordSets(map[string]string{
	"en": `price prices pricing cost costs fee fees refund refunds refunded shipping ship shipped postage
		courier delivery deliver delivered payment payments pay paid paying invoice invoices receipt
		receipts warranty guarantee discount discounts voucher vouchers coupon subscription
		subscriptions parcel parcels trial purchase purchased`,
	"de": `versand versandkosten lieferung liefern preis preise kosten kostet gebühr gebühren
		rückerstattung erstattung zahlung bezahlen bezahlt rechnung quittung garantie rabatt gutschein
		abo abonnement paket`,
	"fr": `livraison livrer expédition prix tarif tarifs coût coûte frais remboursement rembourser
		paiement payer payé facture reçu garantie réduction remise abonnement colis`,
})

// commerce are the words that the titles, headings or openings of a
// business's pages about its dealings have. A knowledge base with none of
// them sells nothing (a manual): its prose mentions prices and delivery
// only in passing ("the price of a cache miss", "mail delivery").
var commerce = wordSets(map[string]string{
	"en": `price prices pricing fee fees refund refunds shipping postage courier payment payments invoice
		invoices receipt receipts warranty discount discounts voucher vouchers coupon subscription
		subscriptions parcel parcels`,
	"de": `versand versandkosten lieferung preis preise kosten gebühr rückerstattung zahlung rechnung
		garantie rabatt gutschein abonnement paket`,
	"fr": `livraison prix tarif tarifs frais remboursement paiement facture garantie réduction abonnement colis`,
})
