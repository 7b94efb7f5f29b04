package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

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
	server := assistant.EvalServer{URL: f.url, Key: f.key, Site: f.site}
	for _, c := range cases {
		a, err := server.Ask(ctx, c.Q)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%-8s %s\n", tally.Add(c, a.Known, a.Cited()), c.Q)
		if c.Answer != "" && a.Known && !tally.AddReply(c, a.Known, a.Body) {
			fmt.Fprintf(out, "         the reply lacks %q\n", c.Answer)
		}
		for i, s := range a.Sources {
			where := "" // a text source has no URL
			if s.URL != "" {
				where = " <" + s.URL + ">"
			}
			fmt.Fprintf(out, "         %d. %s%s %.2f\n", i+1, s.Title, where, s.Score)
		}
	}
	if tally.Phrased > 0 {
		fmt.Fprintln(out, tally.PhraseLine())
	}
	fmt.Fprintln(out, tally.String())
	if below := tally.Below(f.minAny, f.minFirst, f.minAbstain); len(below) > 0 {
		return fmt.Errorf("below the minimum: %s", strings.Join(below, ", "))
	}
	return nil
}
