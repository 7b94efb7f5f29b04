package assistant

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// EvalCase is one question of an evaluation file: the pages that answer
// it, or none when the right reply is to say the answer is not known.
type EvalCase struct {
	Q      string
	Expect []string // URL endings or page titles; empty when None
	None   bool
	Answer string // a phrase the reply must hold ("£4.95"); "" when none is named
	Typo   bool   // the question is misspelt on purpose, as customers write
}

// evalLine is an entry of the file as written: expect is a list or "none".
type evalLine struct {
	Q      string    `yaml:"q"`
	Expect yaml.Node `yaml:"expect"`
	Answer string    `yaml:"answer"`
	Typo   bool      `yaml:"typo"`
}

// ParseEval reads an evaluation file: a YAML list of
// {q: "…", expect: ["/path/a.html", …], answer: "…"} or {q: "…", expect: none};
// answer (a phrase the reply must hold) and typo (true: misspelt on purpose) are optional.
func ParseEval(data []byte) ([]EvalCase, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var lines []evalLine
	if err := dec.Decode(&lines); err != nil {
		return nil, fmt.Errorf("not an evaluation file: %w", err)
	}
	if len(lines) == 0 {
		return nil, errors.New("the evaluation file has no questions")
	}
	out := make([]EvalCase, 0, len(lines))
	for i, l := range lines {
		c := EvalCase{Q: strings.TrimSpace(l.Q), Answer: strings.TrimSpace(l.Answer), Typo: l.Typo}
		if c.Q == "" {
			return nil, fmt.Errorf("question %d: q is missing", i+1)
		}
		switch e := l.Expect; {
		case e.Kind == yaml.ScalarNode && e.Value == "none" && c.Answer == "":
			c.None = true
		case e.Kind == yaml.SequenceNode && len(e.Content) > 0:
			if err := e.Decode(&c.Expect); err != nil {
				return nil, fmt.Errorf("question %d: expect: %w", i+1, err)
			}
		default:
			return nil, fmt.Errorf("question %d (%q): expect must be a list of pages or none", i+1, c.Q)
		}
		out = append(out, c)
	}
	return out, nil
}

// EvalSource is a page an answer cites.
type EvalSource struct {
	Title, URL string
}

// Cites reports whether s is one of the expected pages: its URL ends with,
// or its title equals, one of them.
func (c EvalCase) Cites(s EvalSource) bool {
	for _, e := range c.Expect {
		if strings.HasSuffix(s.URL, e) || s.Title == e {
			return true
		}
	}
	return false
}

// EvalTally counts the verdicts of an evaluation run.
type EvalTally struct {
	Any, First, Answerable  int // an expected page among the sources; first; questions with an answer
	Abstained, Unanswerable int // declined (no sources, not known); questions without one
	Declined                int // questions with an answer that were declined
	Phrase, Phrased         int // answered questions whose reply holds their answer phrase; answered questions with one
}

// AddReply judges the reply's text: an answered question that names an
// answer phrase counts when the reply holds it (case and spacing aside).
func (t *EvalTally) AddReply(c EvalCase, known bool, body string) bool {
	if c.None || c.Answer == "" || !known {
		return false
	}
	t.Phrased++
	norm := func(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }
	if strings.Contains(norm(body), norm(c.Answer)) {
		t.Phrase++
		return true
	}
	return false
}

// Add judges one answer (known, and the sources in order) and returns the verdict:
// first, any or miss for a question with an answer, abstain or answered for one without.
func (t *EvalTally) Add(c EvalCase, known bool, sources []EvalSource) string {
	if c.None {
		t.Unanswerable++
		if !known && len(sources) == 0 {
			t.Abstained++
			return "abstain"
		}
		return "answered"
	}
	t.Answerable++
	if !known && len(sources) == 0 {
		t.Declined++
	}
	for i, s := range sources {
		if c.Cites(s) {
			t.Any++
			if i == 0 {
				t.First++
				return "first"
			}
			return "any"
		}
	}
	return "miss"
}

// PhraseLine says how many answered questions' replies hold their answer phrase.
func (t EvalTally) PhraseLine() string {
	return fmt.Sprintf("answer-phrase %d/%d", t.Phrase, t.Phrased)
}

// String is the summary line: any-source A/N, first-source F/N, abstain U/M.
func (t EvalTally) String() string {
	return fmt.Sprintf("any-source %d/%d, first-source %d/%d, abstain %d/%d",
		t.Any, t.Answerable, t.First, t.Answerable, t.Abstained, t.Unanswerable)
}

// Below lists the shares (0 to 1) that the tally does not reach, as
// "any-source 0.80 < 0.90"; a share over no questions is not checked.
func (t EvalTally) Below(minAny, minFirst, minAbstain float64) []string {
	var out []string
	check := func(name string, n, of int, min float64) {
		if of > 0 && float64(n)/float64(of) < min {
			out = append(out, fmt.Sprintf("%s %.2f < %.2f", name, float64(n)/float64(of), min))
		}
	}
	check("any-source", t.Any, t.Answerable, minAny)
	check("first-source", t.First, t.Answerable, minFirst)
	check("abstain", t.Abstained, t.Unanswerable, minAbstain)
	return out
}
