package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"chatsvc/app"
	"chatsvc/chat"
)

func keysCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "keys", Short: "Manage secret API keys"}
	var mode, name string
	create := &cobra.Command{
		Use:   "create --mode live|test [--name N]",
		Short: "Create a secret API key; prints it (shown only this once) on the last line",
		Args:  cobra.NoArgs,
		RunE: g.withService(func(ctx context.Context, svc *app.Service, out io.Writer) error {
			secret, key, err := svc.CreateKey(ctx, chat.Mode(mode), name)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "Created %s key %s. The secret is shown only this once:\n%s\n", key.Mode, key.ID, secret)
			return nil
		}),
	}
	create.Flags().StringVar(&mode, "mode", "", "live or test (required)")
	create.Flags().StringVar(&name, "name", "", "a label for the key")
	create.MarkFlagRequired("mode")
	list := &cobra.Command{
		Use:   "list",
		Short: "List API keys (never their secrets)",
		Args:  cobra.NoArgs,
		RunE: g.withService(func(ctx context.Context, svc *app.Service, out io.Writer) error {
			keys, err := svc.Keys(ctx)
			if err != nil {
				return err
			}
			return table(out, []string{"ID", "MODE", "NAME", "ENDS WITH", "CREATED", "REVOKED"}, len(keys), func(i int) []any {
				k := keys[i]
				return []any{k.ID, k.Mode, deref(k.Name), "…" + k.Hint, k.CreatedAt, tsOrDash(k.RevokedAt)}
			})
		}),
	}
	revoke := &cobra.Command{
		Use:   "revoke KEY_ID",
		Short: "Revoke an API key; requests with it are refused from then on",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withService(func(ctx context.Context, svc *app.Service, out io.Writer) error {
				if err := svc.RevokeKey(ctx, args[0]); err != nil {
					return err
				}
				fmt.Fprintf(out, "Revoked %s\n", args[0])
				return nil
			})(cmd, args)
		},
	}
	cmd.AddCommand(create, list, revoke)
	return cmd
}

func sitesCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "sites", Short: "Manage the websites the widget runs on"}
	var name, domain string
	create := &cobra.Command{
		Use:   "create --name N [--domain D]",
		Short: "Create a site; prints its id on the last line",
		Args:  cobra.NoArgs,
		RunE: g.withService(func(ctx context.Context, svc *app.Service, out io.Writer) error {
			site, err := svc.CreateSite(ctx, name, domain)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "Created site %q:\n%s\n", site.Name, site.ID)
			return nil
		}),
	}
	create.Flags().StringVar(&name, "name", "", "the site's name (required)")
	create.Flags().StringVar(&domain, "domain", "", "the site's domain, e.g. example.com")
	create.MarkFlagRequired("name")
	list := &cobra.Command{
		Use:   "list",
		Short: "List sites",
		Args:  cobra.NoArgs,
		RunE: g.withService(func(ctx context.Context, svc *app.Service, out io.Writer) error {
			sites, err := svc.Sites(ctx)
			if err != nil {
				return err
			}
			return table(out, []string{"ID", "NAME", "DOMAINS", "CREATED"}, len(sites), func(i int) []any {
				s := sites[i]
				return []any{s.ID, s.Name, strings.Join(s.Domains, ","), s.CreatedAt}
			})
		}),
	}
	cmd.AddCommand(create, list, identitySecretCmd(g))
	return cmd
}

func membersCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "members", Short: "Manage team members"}
	var email, name, password, role string
	create := &cobra.Command{
		Use:   "create --email E --name N [--password P] [--role owner|agent]",
		Short: "Create a team member; prints its id on the last line",
		Args:  cobra.NoArgs,
		RunE: g.withService(func(ctx context.Context, svc *app.Service, out io.Writer) error {
			m, err := svc.CreateMemberAs(ctx, role, email, name, password)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "Created team member %s <%s> (%s):\n%s\n", m.Name, m.Email, m.Role, m.ID)
			return nil
		}),
	}
	create.Flags().StringVar(&email, "email", "", "e-mail address (required)")
	create.Flags().StringVar(&name, "name", "", "display name (required)")
	create.Flags().StringVar(&password, "password", "", "password for the dashboard (at least 8 characters)")
	create.Flags().StringVar(&role, "role", "", "owner or agent (default: owner when the team has no owner yet, agent otherwise)")
	create.MarkFlagRequired("email")
	create.MarkFlagRequired("name")
	list := &cobra.Command{
		Use:   "list",
		Short: "List team members",
		Args:  cobra.NoArgs,
		RunE: g.withService(func(ctx context.Context, svc *app.Service, out io.Writer) error {
			members, err := svc.Members(ctx)
			if err != nil {
				return err
			}
			return table(out, []string{"ID", "EMAIL", "NAME", "ROLE", "PASSWORD", "CREATED"}, len(members), func(i int) []any {
				m := members[i]
				pw := "no"
				if m.PasswordHash != nil {
					pw = "yes"
				}
				return []any{m.ID, m.Email, m.Name, m.Role, pw, m.CreatedAt}
			})
		}),
	}
	cmd.AddCommand(create, list, setPasswordCmd(g))
	return cmd
}

// table prints n rows under a header, in aligned columns.
func table(out io.Writer, header []string, n int, row func(int) []any) error {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	for i, h := range header {
		if i > 0 {
			fmt.Fprint(tw, "\t")
		}
		fmt.Fprint(tw, h)
	}
	fmt.Fprintln(tw)
	for i := 0; i < n; i++ {
		for j, v := range row(i) {
			if j > 0 {
				fmt.Fprint(tw, "\t")
			}
			fmt.Fprint(tw, v)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

func deref(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}

func tsOrDash(t *chat.Timestamp) string {
	if t == nil {
		return "-"
	}
	return t.String()
}
