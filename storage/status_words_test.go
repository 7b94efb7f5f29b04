package storage_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"chatsvc/chat"
)

// TestNoStatusWordsInStatements: storage decides nothing, so no statement
// names a status itself; each status reaches a statement as a parameter,
// from the domain's constants. The migrations, which made the tables, are
// the exception.
func TestNoStatusWordsInStatements(t *testing.T) {
	words := map[string]bool{} // mails and alerts share some words
	for _, w := range []string{string(chat.StatusOpen), string(chat.StatusWaiting), string(chat.StatusHandedOff),
		string(chat.StatusClosed), chat.MailPending, chat.MailSent, chat.MailFailed, chat.AlertPending, chat.AlertSent,
		chat.AlertSkipped} {
		words[w] = true
	}
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no source files (%v)", err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for w := range words {
			if strings.Contains(string(src), "'"+w+"'") {
				t.Errorf("%s names the status '%s' in SQL: pass the domain's constant as a parameter", f, w)
			}
		}
	}
}
