package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"chatsvc/app"
)

// setPasswordCmd sets a member's dashboard password. Without --password it
// reads the password from the first line of standard input, which keeps it
// out of the shell's history and the process list.
func setPasswordCmd(g *globals) *cobra.Command {
	var email, password string
	cmd := &cobra.Command{
		Use:   "set-password --email E [--password P]",
		Short: "Set a team member's dashboard password (read from stdin without --password); ends their sessions",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if password == "" {
				line, err := bufio.NewReader(cmd.InOrStdin()).ReadString('\n')
				if err != nil && err != io.EOF {
					return err
				}
				password = strings.TrimRight(line, "\r\n")
			}
			return g.withService(func(ctx context.Context, svc *app.Service, out io.Writer) error {
				m, err := svc.SetMemberPassword(ctx, email, password)
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "Password set for %s <%s>; their open dashboard sessions have ended.\n%s\n", m.Name, m.Email, m.ID)
				return nil
			})(cmd, args)
		},
	}
	cmd.Flags().StringVar(&email, "email", "", "the member's e-mail address (required)")
	cmd.Flags().StringVar(&password, "password", "", "the new password (at least 8 characters)")
	cmd.MarkFlagRequired("email")
	return cmd
}
