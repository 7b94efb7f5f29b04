package bench

import (
	"context"
	"testing"
	"time"

	"chatsvc/app"
	"chatsvc/bench/seed"
	"chatsvc/chat"
	"chatsvc/storage"
)

// benchService is a service on a new data dir with one site and one member,
// the setup every benchmark of the service's own calls starts from.
type benchService struct {
	db     *storage.DB
	svc    *app.Service
	site   *chat.Site
	member *chat.Member
}

func newBenchService(b *testing.B, o app.Options) *benchService {
	b.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	s := &benchService{db: db, svc: app.New(db, o)}
	if s.site, err = s.svc.CreateSite(ctx, "Bench", ""); err != nil {
		b.Fatal(err)
	}
	if s.member, err = s.svc.CreateMember(ctx, "agent@example.com", "Agent", ""); err != nil {
		b.Fatal(err)
	}
	return s
}

// seedFull fills the data dir with the full seeded data set in mode, its
// newest rows at now.
func (s *benchService) seedFull(b *testing.B, mode chat.Mode, now time.Time) {
	b.Helper()
	start := time.Now()
	if _, err := seed.Run(context.Background(), s.db, mode, []string{s.site.ID}, s.member.ID, seed.Full, now); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded in %s", time.Since(start).Round(time.Second))
}
