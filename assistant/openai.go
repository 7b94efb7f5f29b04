package assistant

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"chatsvc/chat"
	"chatsvc/knowledge"
)

// OpenAI is the provider for any OpenAI-compatible chat-completions
// service. The passages go to the model as numbered context; it cites the
// ones it uses as [n], which become the reply's sources.
type OpenAI struct {
	BaseURL string // e.g. https://api.openai.com/v1
	APIKey  string
	Model   string
	Client  *http.Client // from outbound.New, so the request is guarded like every other
}

// noAnswer is what the model is told to say when the passages do not answer.
const noAnswer = "NO_ANSWER"

const systemPrompt = `You are the support assistant of a website. Answer the visitor's question
using only the numbered passages below. Be concise: two or three sentences. Cite each passage
you use as [n]. If the passages do not contain the answer, reply with exactly ` + noAnswer + ` and nothing else.`

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	Temperature float64       `json:"temperature"`
}

type chatResponse struct {
	Choices []struct {
		Message chatMessage `json:"message"`
	} `json:"choices"`
}

var citation = regexp.MustCompile(`\s*\[(\d{1,2})\]`)

// Compose asks the model and maps its citations back to the passages.
func (o OpenAI) Compose(ctx context.Context, question string, history []*chat.Message, passages []knowledge.Passage) (Draft, error) {
	var ctxText strings.Builder
	ctxText.WriteString(systemPrompt + "\n\n")
	for i, p := range passages {
		fmt.Fprintf(&ctxText, "[%d] %s", i+1, p.Title)
		if p.Heading != "" && p.Heading != p.Title {
			fmt.Fprintf(&ctxText, " — %s", p.Heading)
		}
		fmt.Fprintf(&ctxText, "\n%s\n\n", p.Text)
	}
	msgs := []chatMessage{{Role: "system", Content: ctxText.String()}}
	for _, m := range history {
		role := "assistant"
		if m.Author.Type == chat.AuthorContact {
			role = "user"
		}
		msgs = append(msgs, chatMessage{Role: role, Content: m.Body})
	}
	msgs = append(msgs, chatMessage{Role: "user", Content: question})
	var out chatResponse
	err := postJSON(ctx, o.Client, o.BaseURL, "/chat/completions", o.APIKey,
		chatRequest{Model: o.Model, Messages: msgs, Temperature: 0.2}, &out)
	if err != nil {
		return Draft{}, err
	}
	if len(out.Choices) == 0 {
		return Draft{}, fmt.Errorf("chat completions: unexpected response")
	}
	text := strings.TrimSpace(out.Choices[0].Message.Content)
	if text == "" || strings.Contains(text, noAnswer) {
		return Draft{}, nil
	}
	var used []int
	for _, m := range citation.FindAllStringSubmatch(text, -1) {
		if n, _ := strconv.Atoi(m[1]); n >= 1 && n <= len(passages) {
			used = append(used, n-1)
		}
	}
	if len(used) == 0 {
		used = []int{0} // an uncited answer still rests on the best passage
	}
	return Draft{Body: strings.TrimSpace(citation.ReplaceAllString(text, "")), Used: used, Known: true}, nil
}

// postJSON sends in to an OpenAI-compatible endpoint and decodes its
// answer into out; the error names the endpoint, never the key.
func postJSON(ctx context.Context, client *http.Client, baseURL, path, apiKey string, in, out any) error {
	name := strings.TrimPrefix(path, "/")
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(baseURL, "/")+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxResponse))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("%s: status %d", name, res.StatusCode)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s: unexpected response", name)
	}
	return nil
}

// maxResponse bounds what is read of a model server's answer (a batch of
// embeddings is the largest).
const maxResponse = 32 << 20
