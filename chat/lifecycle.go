package chat

import (
	"fmt"
	"slices"
	"strings"
)

// Status is where a conversation is in its lifecycle (docs/api.md,
// Conversations).
type Status string

// The conversation statuses. A conversation starts open, answered by the
// assistant; waiting is with the team but unanswered by a person;
// handed_off is with a person; closed is done.
const (
	StatusOpen      Status = "open"
	StatusWaiting   Status = "waiting"
	StatusHandedOff Status = "handed_off"
	StatusClosed    Status = "closed"
)

// Statuses are every conversation status, in the order the docs name them.
var Statuses = []Status{StatusOpen, StatusWaiting, StatusHandedOff, StatusClosed}

// Trigger is something that may move a conversation to another status.
type Trigger int

// The triggers. A visitor's message moves nothing: in an open conversation
// the assistant answers it, and after close it starts a new conversation.
const (
	VisitorAsks        Trigger = iota // the visitor asks for a person (widget)
	HandOff                           // the team hands off without an assignee
	HandOffTo                         // the team hands off to a member
	AgentReply                        // a team member's message
	AssistantGivesUp                  // the assistant cannot answer and says a person will
	EmailReply                        // the contact answers a missed-reply e-mail, nobody assigned
	EmailReplyAssigned                // the same with an assignee
	Close                             // the team closes the conversation
)

// Triggers are every trigger, in the order of the lifecycle table.
var Triggers = []Trigger{VisitorAsks, HandOff, HandOffTo, AgentReply, AssistantGivesUp, EmailReply, EmailReplyAssigned, Close}

// Assignment is what a step does to a conversation's assignee.
type Assignment int

// The assignments.
const (
	KeepAssignee     Assignment = iota
	AssignGiven                 // the member the trigger names
	AssignWhenNobody            // the member who acted, when nobody has the conversation
)

// Step is what one trigger does to a conversation in one status.
type Step struct {
	To      Status     // the status after; the same one when it stays
	Event   string     // the conversation event recorded, "" for none
	Assign  Assignment // what happens to the assignee
	Refused bool       // the trigger is refused: the conversation is closed
}

// Stays tells a step that changes nothing and records nothing.
func (st Step) Stays(from Status) bool {
	return !st.Refused && st.To == from && st.Event == "" && st.Assign == KeepAssignee
}

// refused is the step of a trigger a closed conversation refuses.
var refused = Step{To: StatusClosed, Refused: true}

// lifecycle is the whole lifecycle: for each trigger, what it does in each
// status. Every pair is listed; nothing else moves a conversation.
var lifecycle = map[Trigger]map[Status]Step{
	VisitorAsks: {
		StatusOpen:      {To: StatusWaiting, Event: EventConversationHandedOff},
		StatusWaiting:   {To: StatusWaiting}, // asked again: already with the team
		StatusHandedOff: {To: StatusHandedOff},
		StatusClosed:    refused,
	},
	HandOff: {
		StatusOpen:      {To: StatusWaiting, Event: EventConversationHandedOff},
		StatusWaiting:   {To: StatusWaiting, Event: EventConversationHandedOff},
		StatusHandedOff: {To: StatusWaiting, Event: EventConversationHandedOff},
		StatusClosed:    refused,
	},
	HandOffTo: {
		StatusOpen:      {To: StatusHandedOff, Event: EventConversationHandedOff, Assign: AssignGiven},
		StatusWaiting:   {To: StatusHandedOff, Event: EventConversationHandedOff, Assign: AssignGiven},
		StatusHandedOff: {To: StatusHandedOff, Event: EventConversationHandedOff, Assign: AssignGiven},
		StatusClosed:    refused,
	},
	AgentReply: {
		// A person takes over from the assistant.
		StatusOpen:      {To: StatusHandedOff, Event: EventConversationHandedOff, Assign: AssignWhenNobody},
		StatusWaiting:   {To: StatusHandedOff},
		StatusHandedOff: {To: StatusHandedOff},
		StatusClosed:    refused,
	},
	AssistantGivesUp: {
		StatusOpen: {To: StatusWaiting, Event: EventConversationHandedOff},
		// The assistant answers only open conversations.
		StatusWaiting:   {To: StatusWaiting},
		StatusHandedOff: {To: StatusHandedOff},
		StatusClosed:    {To: StatusClosed},
	},
	EmailReply: {
		StatusOpen:      {To: StatusOpen},
		StatusWaiting:   {To: StatusWaiting},
		StatusHandedOff: {To: StatusHandedOff},
		// Reopened: the contact answers the team, as a ticket reopens.
		StatusClosed: {To: StatusWaiting, Event: EventConversationHandedOff},
	},
	EmailReplyAssigned: {
		StatusOpen:      {To: StatusOpen},
		StatusWaiting:   {To: StatusWaiting},
		StatusHandedOff: {To: StatusHandedOff},
		StatusClosed:    {To: StatusHandedOff, Event: EventConversationHandedOff},
	},
	Close: {
		StatusOpen:      {To: StatusClosed, Event: EventConversationClosed},
		StatusWaiting:   {To: StatusClosed, Event: EventConversationClosed},
		StatusHandedOff: {To: StatusClosed, Event: EventConversationClosed},
		StatusClosed:    {To: StatusClosed}, // closing twice changes nothing
	},
}

// NextStatus is what trigger t does to a conversation in status current.
// An unknown status or trigger stays where it is.
func NextStatus(current Status, t Trigger) Step {
	if st, ok := lifecycle[t][current]; ok {
		return st
	}
	return Step{To: current}
}

// StaysIn lists the statuses in which t changes nothing, for writes that
// take the common case in one statement and look further only otherwise.
func StaysIn(t Trigger) []Status {
	var out []Status
	for _, s := range Statuses {
		if NextStatus(s, t).Stays(s) {
			out = append(out, s)
		}
	}
	return out
}

// Open tells a status in which the team still has work: not closed.
func (s Status) Open() bool { return s != StatusClosed }

// OpenStatuses are the statuses of conversations the inbox counts.
func OpenStatuses() []Status {
	var out []Status
	for _, s := range Statuses {
		if s.Open() {
			out = append(out, s)
		}
	}
	return out
}

// triggerDocs says in the docs' words what each trigger is, whether it
// comes with a message (message.created), and whether that message's event
// is recorded before the conversation's.
var triggerDocs = map[Trigger]struct {
	what         string
	message      bool
	messageFirst bool
}{
	VisitorAsks:        {what: "the visitor asks for a person (widget)"},
	HandOff:            {what: "`POST /conversations/{id}/handoff` without `assignee_id`"},
	HandOffTo:          {what: "`POST /conversations/{id}/handoff` with `assignee_id`"},
	AgentReply:         {what: "an agent message", message: true},
	AssistantGivesUp:   {what: "the assistant gives up (its provider keeps failing) and says a person will follow up", message: true, messageFirst: true},
	EmailReply:         {what: "the contact's e-mail reply to a missed-reply e-mail, nobody assigned", message: true, messageFirst: true},
	EmailReplyAssigned: {what: "the contact's e-mail reply to a missed-reply e-mail, assigned", message: true, messageFirst: true},
	Close:              {what: "`POST /conversations/{id}/close`"},
}

// String names a trigger as the lifecycle table does.
func (t Trigger) String() string {
	if d, ok := triggerDocs[t]; ok {
		return d.what
	}
	return fmt.Sprintf("trigger %d", int(t))
}

// LifecycleTable is the lifecycle as the Markdown table of docs/api.md:
// a conversation's creation, then for each trigger the statuses it moves
// or refuses, grouped where they do the same. Pairs that change nothing
// and record nothing are left out.
func LifecycleTable() string {
	var b strings.Builder
	b.WriteString("| from | trigger | to | event |\n|---|---|---|---|\n")
	fmt.Fprintf(&b, "| (new) | the visitor's first message (widget) | `%s` | `%s`, `%s` |\n",
		StatusOpen, EventConversationCreated, EventMessageCreated)
	for _, t := range Triggers {
		var groups []Step
		from := map[Step][]Status{}
		for _, s := range Statuses {
			st := NextStatus(s, t)
			if st.Stays(s) {
				continue
			}
			if _, ok := from[st]; !ok {
				groups = append(groups, st)
			}
			from[st] = append(from[st], s)
		}
		for _, st := range groups {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", statusSet(from[st]), t, stepTo(st, from[st]), stepEvents(st, t))
		}
	}
	return b.String()
}

// statusSet names a set of statuses: "any", "any but `closed`" or a list.
func statusSet(ss []Status) string {
	if len(ss) == len(Statuses) {
		return "any"
	}
	if len(ss) == len(Statuses)-1 && !slices.Contains(ss, StatusClosed) {
		return "any but `closed`"
	}
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = "`" + string(s) + "`"
	}
	return strings.Join(names, ", ")
}

func stepTo(st Step, from []Status) string {
	if st.Refused {
		return "refused: 409 `conversation_closed`"
	}
	to := "`" + string(st.To) + "`"
	if len(from) == 1 && from[0] == StatusClosed {
		to += ", reopened"
	}
	switch st.Assign {
	case AssignGiven:
		to += ", assigned"
	case AssignWhenNobody:
		to += ", assigned to the author when unassigned"
	}
	return to
}

func stepEvents(st Step, t Trigger) string {
	var evs []string
	if st.Event != "" {
		evs = append(evs, "`"+st.Event+"`")
	}
	if d := triggerDocs[t]; d.message && !st.Refused {
		if d.messageFirst {
			evs = append([]string{"`" + EventMessageCreated + "`"}, evs...)
		} else {
			evs = append(evs, "`"+EventMessageCreated+"`")
		}
	}
	if len(evs) == 0 {
		return "none"
	}
	return strings.Join(evs, ", ")
}
