package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"chatsvc/assistant"
)

// evalFlags are the options of `chatsvc eval`.
type evalFlags struct {
	key, url, site               string
	minAny, minFirst, minAbstain float64
}

func evalCmd(g *globals) *cobra.Command {
	var f evalFlags
	cmd := &cobra.Command{
		Use:   "eval FILE",
		Short: "Score the assistant of a running server on the questions of FILE",
		Long: "Sends each question of FILE (YAML: a list of {q, expect: [page, …] | none}) to\n" +
			"POST /v1/assistant/answers of a running server and prints, per question, the verdict\n" +
			"and the cited pages, then the summary. Exit status 1 when a share is below its minimum.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			raw, err := os.ReadFile(args[0])
			if err != nil {
				return err
			}
			cases, err := assistant.ParseEval(raw)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			if f.url == "" {
				cfg, err := g.load()
				if err != nil {
					return err
				}
				f.url = cfg.PublicURL
			}
			return runEval(cmd.Context(), cmd.OutOrStdout(), f, cases)
		},
	}
	cmd.Flags().StringVar(&f.key, "key", "", "secret API key (its mode decides which sources answer)")
	cmd.Flags().StringVar(&f.url, "url", "", "the server's root URL (default public_url)")
	cmd.Flags().StringVar(&f.site, "site", "", "ask as a visitor of this site (default: sources of every site only)")
	cmd.Flags().Float64Var(&f.minAny, "min-any", 0, "least share (0 to 1) of answerable questions citing an expected page")
	cmd.Flags().Float64Var(&f.minFirst, "min-first", 0, "least share (0 to 1) of answerable questions whose first source is expected")
	cmd.Flags().Float64Var(&f.minAbstain, "min-abstain", 0, "least share (0 to 1) of unanswerable questions declined")
	cmd.MarkFlagRequired("key")
	return cmd
}

// runEval asks every question, prints the verdicts and the summary last,
// and fails when a share is below its minimum.
func runEval(ctx context.Context, out io.Writer, f evalFlags, cases []assistant.EvalCase) error {
	for _, m := range []float64{f.minAny, f.minFirst, f.minAbstain} {
		if m < 0 || m > 1 {
			return fmt.Errorf("minimums are shares from 0 to 1, got %v", m)
		}
	}
	var tally assistant.EvalTally
	client := &http.Client{Timeout: time.Minute}
	for _, c := range cases {
		a, err := askServer(ctx, client, f, c.Q)
		if err != nil {
			return err
		}
		srcs := make([]assistant.EvalSource, len(a.Sources))
		for i, s := range a.Sources {
			srcs[i] = assistant.EvalSource{Title: s.Title, URL: s.URL}
		}
		fmt.Fprintf(out, "%-8s %s\n", tally.Add(c, a.Known, srcs), c.Q)
		for i, s := range a.Sources {
			fmt.Fprintf(out, "         %d. %s <%s> %.2f\n", i+1, s.Title, s.URL, s.Score)
		}
	}
	fmt.Fprintln(out, tally.String())
	if below := tally.Below(f.minAny, f.minFirst, f.minAbstain); len(below) > 0 {
		return fmt.Errorf("below the minimum: %s", strings.Join(below, ", "))
	}
	return nil
}

// answer is the part of the API's assistant_answer that eval reads.
type answer struct {
	Known   bool `json:"known"`
	Sources []struct {
		Title string  `json:"title"`
		URL   string  `json:"url"`
		Score float64 `json:"score"`
	} `json:"sources"`
}

// askServer posts one question, waiting out rate limits.
func askServer(ctx context.Context, client *http.Client, f evalFlags, question string) (*answer, error) {
	body := map[string]any{"question": question}
	if f.site != "" {
		body["site_id"] = f.site
	}
	payload, _ := json.Marshal(body)
	endpoint := strings.TrimRight(f.url, "/") + "/v1/assistant/answers"
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, "POST", endpoint, bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+f.key)
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
		var a answer
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
