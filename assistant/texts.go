package assistant

import (
	"regexp"

	"chatsvc/lang"
)

// Replies the assistant gives without a provider, in English.
const (
	HandOffReply  = "Sure, I've asked a person from the team to join. They will reply here."
	UnknownReply  = "I couldn't find the answer to that in our help pages. Would you like to talk to a person? Press \"Talk to a person\" or just ask for one."
	GreetingReply = "Hello! What can I help you with?"
	ThanksReply   = "You're welcome! Is there anything else I can help you with?"
)

// replies are the assistant's own texts in each language it speaks, in
// the words the widget uses for its buttons.
type replies struct{ handOff, unknown, greeting, thanks string }

var texts = map[string]replies{
	"en": {HandOffReply, UnknownReply, GreetingReply, ThanksReply},
	"de": {"Gern, ich habe eine Person aus dem Team dazugeholt. Sie antwortet hier.",
		"Dazu habe ich in unseren Hilfeseiten keine Antwort gefunden. Möchten Sie mit einem Menschen sprechen? Klicken Sie auf „Mit einem Menschen sprechen“ oder fragen Sie einfach danach.",
		"Hallo! Wobei kann ich helfen?",
		"Gern geschehen! Kann ich sonst noch helfen?"},
	"fr": {"Bien sûr, j'ai demandé à une personne de l'équipe de nous rejoindre. Elle vous répondra ici.",
		"Je n'ai pas trouvé la réponse dans nos pages d'aide. Voulez-vous parler à une personne ? Cliquez sur « Parler à une personne » ou demandez-le simplement.",
		"Bonjour ! Comment puis-je vous aider ?",
		"Avec plaisir ! Puis-je vous aider pour autre chose ?"},
	"es": {"Claro, he pedido a una persona del equipo que se una. Te responderá aquí.",
		"No he encontrado la respuesta en nuestras páginas de ayuda. ¿Quieres hablar con una persona? Pulsa «Hablar con una persona» o pídelo sin más.",
		"¡Hola! ¿En qué puedo ayudarte?",
		"¡De nada! ¿Puedo ayudarte en algo más?"},
	"nl": {"Natuurlijk, ik heb iemand van het team gevraagd om erbij te komen. Diegene antwoordt hier.",
		"Ik heb het antwoord niet gevonden in onze helppagina's. Wil je met een mens praten? Klik op \"Met een mens praten\" of vraag er gewoon om.",
		"Hallo! Waarmee kan ik je helpen?",
		"Graag gedaan! Kan ik je nog ergens anders mee helpen?"},
}

// textsIn returns the assistant's texts in language, English's for any
// language it does not speak.
func textsIn(language string) replies {
	if t, ok := texts[lang.Base(language)]; ok {
		return t
	}
	return texts[lang.English]
}

// askPerson matches messages that ask for a person rather than an answer,
// in each language the assistant speaks.
var askPerson = []*regexp.Regexp{
	regexp.MustCompile(`\b(talk|speak|chat|connect|put) (me )?(to|with|through to) (a |an |the |some |your )?(human|person|people|someone|somebody|agent|representative|operator|staff|team|support)\b`),
	regexp.MustCompile(`\b(real|actual|live) (person|human|agent|people)\b`),
	regexp.MustCompile(`\b(want|need|get|give|request|see)( me)?( to talk to| to speak to)? (a |an )?(human|person|agent|representative|operator)\b`),
	regexp.MustCompile(`^\W*(human|agent|person|operator|representative|talk to someone)\W*(please)?\W*$`),
	regexp.MustCompile(`\bare you (a )?(bot|robot|human)\b.*\b(human|person)\b`),
	// German: "mit einem Menschen sprechen", "einen Mitarbeiter bitte"
	regexp.MustCompile(`\b(mit )?(einem|einer|jemandem|einen|eine) ?(echten |richtigen )?(menschen|mensch|person|mitarbeiter(in)?|berater(in)?|support|kundendienst)\b.*\b(sprechen|reden|chatten|schreiben|verbinden|bitte)\b|\b(menschen|mitarbeiter|berater)\b.*\b(sprechen|reden)\b`),
	// French: "parler à une personne", "un conseiller svp"
	regexp.MustCompile(`\b(parler|discuter|échanger) (à|a|avec) (une |un |quelqu'un|quelqu’un|le |la |l')?(vraie |vrai )?(personne|humain|conseill(er|ère)|agent|opérat(eur|rice)|service client|équipe|quelqu)|\b(un|une) (humain|conseill(er|ère)|agent) (svp|s'il vous plaît|stp)\b`),
	// Spanish: "hablar con una persona", "un agente por favor"
	regexp.MustCompile(`\b(hablar|chatear|comunicarme|contactar) con (una |un |alguien|el |la )?(persona|humano|agente|asesor(a)?|operador(a)?|equipo|alguien)|\b(una persona|un humano|un agente) (por favor|porfa)\b`),
	// Dutch: "met een mens praten", "een medewerker alsjeblieft"
	regexp.MustCompile(`\b(met )?(een |iemand )?(echte )?(mens|persoon|medewerker|medewerkster)\b.*\b(praten|spreken|chatten|alsjeblieft|alstublieft|graag)\b|\b(praten|spreken) met (een |iemand)`),
}

// greetings and thanks are the words of a visitor who only says hello, or
// only thanks or says goodbye; closing says one of them is there.
var (
	greetings = words(`hi hello hey hallo good morning afternoon evening there yo hiya guten tag morgen abend
		moin servus grüß gott bonjour salut bonsoir coucou hola buenos buenas días tardes noches goedemorgen
		goedemiddag goedenavond hoi dag`)
	thanks = words(`thanks thank you thx ty cheers bye goodbye ok okay great perfect awesome cool got it that
		helps helped very much so a lot many for the help all see ya danke vielen dank schön tschüss super
		prima alles klar das hilft merci beaucoup au revoir parfait génial ça aide gracias muchas adiós vale
		perfecto bedankt dank je wel u doei top fijn dankjewel dankuwel`)
	closing = words(`thanks thank thx ty cheers bye goodbye danke tschüss merci revoir gracias adiós bedankt
		dank doei dankjewel dankuwel`)
)
