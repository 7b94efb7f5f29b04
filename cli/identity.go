package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"chatsvc/app"
)

// identitySecretCmd sets a site's identity secret, which makes the widget's
// identify call require a user_hash computed with it.
func identitySecretCmd(g *globals) *cobra.Command {
	var clear bool
	cmd := &cobra.Command{
		Use:   "identity-secret SITE_ID [--clear]",
		Short: "Give a site a new identity secret (replacing any other); prints it on the last line",
		Long: "Give a site a new identity secret (replacing any other) and print it. From then on the widget's\n" +
			"identify call must carry user_hash: the hex HMAC-SHA256 of external_id (or email) keyed with\n" +
			"the secret, computed on the site's own server. --clear removes the secret.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.withService(func(ctx context.Context, svc *app.Service, out io.Writer) error {
				secret, err := svc.SetIdentitySecret(ctx, args[0], clear)
				if err != nil {
					return err
				}
				if clear {
					fmt.Fprintf(out, "Removed the identity secret of %s; identify calls are no longer verified.\n", args[0])
					return nil
				}
				fmt.Fprintf(out, "New identity secret of %s (keep it on your server, never in pages):\n%s\n", args[0], secret)
				return nil
			})(cmd, args)
		},
	}
	cmd.Flags().BoolVar(&clear, "clear", false, "remove the secret instead")
	return cmd
}
