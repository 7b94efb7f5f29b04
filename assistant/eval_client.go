package assistant

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// EvalServer is a running chatsvc to ask: its root URL, a secret key (whose
// mode decides which sources answer) and, optionally, the site to ask as a
// visitor of.
type EvalServer struct {
	URL, Key, Site string
	Client         *http.Client // nil: a client with a one-minute timeout
}

// EvalAnswer is the part of an assistant_answer an evaluation reads.
type EvalAnswer struct {
	Body    string `json:"body"`
	Known   bool   `json:"known"`
	Sources []struct {
		Title string  `json:"title"`
		URL   string  `json:"url"`
		Score float64 `json:"score"`
	} `json:"sources"`
}

// Cited lists the answer's sources as an evaluation judges them.
func (a *EvalAnswer) Cited() []EvalSource {
	out := make([]EvalSource, len(a.Sources))
	for i, s := range a.Sources {
		out[i] = EvalSource{Title: s.Title, URL: s.URL}
	}
	return out
}

// Ask posts one question to POST /v1/assistant/answers, waiting out rate
// limits (at most five times).
func (s EvalServer) Ask(ctx context.Context, question string) (*EvalAnswer, error) {
	client := s.Client
	if client == nil {
		client = &http.Client{Timeout: time.Minute}
	}
	body := map[string]any{"question": question}
	if s.Site != "" {
		body["site_id"] = s.Site
	}
	payload, _ := json.Marshal(body)
	endpoint := strings.TrimRight(s.URL, "/") + "/v1/assistant/answers"
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, "POST", endpoint, bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+s.Key)
		req.Header.Set("Content-Type", "application/json")
		res, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		raw, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return nil, err
		}
		if res.StatusCode == http.StatusTooManyRequests && attempt < 5 {
			wait, _ := strconv.Atoi(res.Header.Get("Retry-After"))
			select {
			case <-time.After(time.Duration(max(wait, 1)) * time.Second):
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		if res.StatusCode != http.StatusOK {
			return nil, apiFailure(res.StatusCode, raw)
		}
		var a EvalAnswer
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, fmt.Errorf("%s: unexpected answer: %w", endpoint, err)
		}
		return &a, nil
	}
}

// apiFailure turns an API error response into an error that says why.
func apiFailure(status int, raw []byte) error {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Error.Message != "" {
		return fmt.Errorf("the server answered %d: %s", status, e.Error.Message)
	}
	return errors.New("the server answered " + strconv.Itoa(status))
}
