package mailer

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	texttemplate "text/template"
)

// builtin holds the default templates: for each e-mail, <name>.txt (which
// also defines "subject") and <name>.html.
//
//go:embed templates/*.txt templates/*.html
var builtin embed.FS

// TemplateDirName is the folder of the data dir whose files replace the
// built-in templates of the same name.
const TemplateDirName = "mail-templates"

// errNoTemplate marks an e-mail whose template does not exist: sending it
// can never succeed.
var errNoTemplate = errors.New("no such template")

var funcs = map[string]any{
	// status words a ticket's contact reads.
	"status": func(s any) string {
		switch fmt.Sprint(s) {
		case "open":
			return "open"
		case "pending":
			return "waiting for your reply"
		case "solved":
			return "solved"
		case "closed":
			return "closed"
		}
		return fmt.Sprint(s)
	},
}

// templates renders e-mails from the built-in templates or their overrides.
type templates struct {
	dir string // overrides; read at each e-mail, so edits apply without a restart
}

// source returns a template file: the override when there is one.
func (t templates) source(file string) (string, error) {
	if t.dir != "" {
		b, err := os.ReadFile(filepath.Join(t.dir, file))
		if err == nil {
			return string(b), nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	b, err := builtin.ReadFile("templates/" + file)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%w: %s", errNoTemplate, file)
	}
	return string(b), err
}

// render produces the subject, plain-text body and HTML body of e-mail name.
func (t templates) render(name string, data map[string]any) (subject, text, html string, err error) {
	if strings.ContainsAny(name, `/\.`) || name == "" {
		return "", "", "", fmt.Errorf("%w: %q", errNoTemplate, name)
	}
	src, err := t.source(name + ".txt")
	if err != nil {
		return "", "", "", err
	}
	tt, err := texttemplate.New(name).Funcs(funcs).Parse(src)
	if err != nil {
		return "", "", "", fmt.Errorf("template %s.txt: %w", name, err)
	}
	var buf bytes.Buffer
	if err := tt.ExecuteTemplate(&buf, "subject", data); err != nil {
		return "", "", "", fmt.Errorf("template %s.txt, subject: %w", name, err)
	}
	subject = strings.Join(strings.Fields(buf.String()), " ") // one line, whatever the data holds
	buf.Reset()
	if err := tt.Execute(&buf, data); err != nil {
		return "", "", "", fmt.Errorf("template %s.txt: %w", name, err)
	}
	text = strings.TrimSpace(buf.String()) + "\n"
	if src, err = t.source(name + ".html"); err != nil {
		return "", "", "", err
	}
	ht, err := htmltemplate.New(name).Funcs(funcs).Parse(src)
	if err != nil {
		return "", "", "", fmt.Errorf("template %s.html: %w", name, err)
	}
	buf.Reset()
	if err := ht.Execute(&buf, data); err != nil {
		return "", "", "", fmt.Errorf("template %s.html: %w", name, err)
	}
	return subject, text, buf.String(), nil
}
