package web_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/chat"
	"chatsvc/files"
	"chatsvc/storage"
	"chatsvc/testenv/webenv"
)

// storedPath is where the file store under dir keeps content.
func storedPath(dir, content string) string {
	sum := sha256.Sum256([]byte(content))
	h := hex.EncodeToString(sum[:])
	return filepath.Join(dir, h[:2], h)
}

func exists(t *testing.T, path string) bool {
	t.Helper()
	_, err := os.Stat(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return err == nil
}

func TestRetentionDeletesOldClosedConversationsAndIdleVisitors(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "files")
	e := webenv.New(t, func(o *app.Options) {
		o.Files = files.New(files.Options{Dir: dir, MaxBytes: 1000, Timeout: 5 * time.Second, AllowPrivate: true})
	})
	fsrv := newFileServer(t, 1000)
	ctx := context.Background()
	const day = 24 * time.Hour
	ret := app.Retention{ClosedConversations: 30 * day, Visitors: 30 * day}
	attach := func(conv, path string) string {
		return e.Test("POST", cvPath(conv, "/messages"), map[string]any{"body": "Here", "author_id": e.Member,
			"attachments": []any{map[string]any{"url": fsrv.URL + path}}}).OK(t, 201)["id"].(string)
	}
	ctc := e.Contact("ada@example.com")
	visitor := func(id string, contact *string) {
		now := chat.At(e.Clock.Now())
		err := e.DB.Write(ctx, func(q *storage.Q) error {
			return q.InsertVisitor(ctx, &chat.Visitor{ID: id, Mode: chat.Test, SiteID: e.Site, ContactID: contact,
				PageURL: "https://example.com/", CreatedAt: now, LastSeenAt: now})
		})
		if err != nil {
			t.Fatal(err)
		}
	}

	// Day 0: a conversation closes, holding one file of its own and one
	// that an open conversation holds too; visitors come by.
	old := cvStart(t, e, chat.Test, e.Site, ctc, "Old question")
	oldMsg := attach(old, "/notes.txt")
	attach(old, "/download")
	tkt := e.Test("POST", "/v1/tickets", map[string]any{"subject": "From chat", "contact_id": ctc,
		"conversation_id": old}).OK(t, 201)["id"].(string)
	e.Test("POST", cvPath(old, "/close"), nil).OK(t, 200)
	open := cvStart(t, e, chat.Test, e.Site, ctc, "Still talking")
	attach(open, "/download")
	visitor("vis_idle", nil)
	visitor("vis_known", &ctc)
	visitor("vis_chatted", nil)
	chatted, _, err := e.Svc.StartConversation(ctx, chat.Test, app.VisitorStart{SiteID: e.Site, VisitorID: "vis_chatted",
		PageURL: "https://example.com/", Body: "Hi"})
	if err != nil {
		t.Fatal(err)
	}
	own, shared := storedPath(dir, "Order 42: refund approved.\n"), storedPath(dir, "%PDF-1.4\n%test\n")
	if !exists(t, own) || !exists(t, shared) {
		t.Fatal("setup: the files are not where the test looks")
	}

	// Day 20: another conversation closes, another visitor comes.
	e.Clock.Advance(20 * day)
	recent := cvStart(t, e, chat.Test, e.Site, ctc, "Recent question")
	e.Test("POST", cvPath(recent, "/close"), nil).OK(t, 200)
	visitor("vis_recent", nil)

	// Day 31: the job runs.
	e.Clock.Advance(11 * day)
	if err := e.Svc.RetentionStep(ctx, ret); err != nil {
		t.Fatal(err)
	}
	e.Test("GET", cvPath(old), nil).Fails(t, 404, "resource_missing", "id")
	e.Test("GET", "/v1/messages/"+oldMsg, nil).Fails(t, 404, "resource_missing", "id")
	if evs, err := e.DB.Read().EventsOf(ctx, old); err != nil || len(evs) != 0 {
		t.Errorf("events of the deleted conversation: %d, %v", len(evs), err)
	}
	if notes, err := e.DB.Read().Notes(ctx, old); err != nil || len(notes) != 0 {
		t.Errorf("notes of the deleted conversation: %d, %v", len(notes), err)
	}
	if exists(t, own) {
		t.Error("the deleted conversation's own file is still on disk")
	}
	if !exists(t, shared) {
		t.Error("a file an open conversation still holds was removed")
	}
	cvEqual(t, "ticket conversation_id", e.Test("GET", "/v1/tickets/"+tkt, nil).OK(t, 200)["conversation_id"], nil)
	for _, id := range []string{open, recent, chatted.ID} {
		e.Test("GET", cvPath(id), nil).OK(t, 200)
	}
	for id, kept := range map[string]bool{"vis_idle": false, "vis_known": true, "vis_chatted": true, "vis_recent": true} {
		_, err := e.DB.Read().Visitor(ctx, chat.Test, id)
		if gone := errors.Is(err, storage.ErrNotFound); gone == kept {
			t.Errorf("visitor %s: kept %v, want %v (%v)", id, !gone, kept, err)
		}
	}

	// The recent conversation's time is up on day 50, a minute after
	// the job runs; the job then waits a day before it runs again.
	for _, step := range []struct {
		advance time.Duration
		kept    bool
	}{{19*day - time.Minute, true}, {time.Hour, true}, {23 * time.Hour, false}} {
		e.Clock.Advance(step.advance)
		if err := e.Svc.RetentionStep(ctx, ret); err != nil {
			t.Fatal(err)
		}
		if r := e.Test("GET", cvPath(recent), nil); (r.Status == 200) != step.kept {
			t.Fatalf("after %v more: recent conversation status %d, want kept %v", step.advance, r.Status, step.kept)
		}
	}
}

func TestRetentionZeroKeepsEverything(t *testing.T) {
	t.Parallel()
	e := webenv.New(t)
	ctx := context.Background()
	conv := cvStart(t, e, chat.Test, e.Site, "", "Hello")
	e.Test("POST", cvPath(conv, "/close"), nil).OK(t, 200)
	e.Clock.Advance(10 * 365 * 24 * time.Hour)
	if err := e.Svc.RetentionStep(ctx, app.Retention{}); err != nil {
		t.Fatal(err)
	}
	e.Test("GET", cvPath(conv), nil).OK(t, 200)
}
