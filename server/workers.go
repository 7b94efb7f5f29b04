package server

import (
	"context"
	"strings"
	"time"

	"chatsvc/app"
	"chatsvc/config"
	"chatsvc/mailer"
	"chatsvc/push"
)

// backgroundWorkers lists the workers serve runs beside the HTTP server.
func backgroundWorkers(cfg *config.Config, svc *app.Service) []app.Worker {
	return append([]app.Worker{
		{Name: "idempotency-prune", Every: time.Hour, Step: func(ctx context.Context) (bool, error) {
			_, err := svc.PruneIdempotencyKeys(ctx)
			return false, err
		}},
		{Name: "dashboard-sessions-prune", Every: time.Hour, Step: func(ctx context.Context) (bool, error) {
			if _, err := svc.PruneDashboardSessions(ctx); err != nil {
				return false, err
			}
			if _, err := svc.PruneMemberLinks(ctx); err != nil {
				return false, err
			}
			_, err := svc.PruneSignInFailures(ctx)
			return false, err
		}},
		svc.RetentionWorker(app.Retention{ClosedConversations: cfg.Retention.ClosedConversations,
			Visitors: cfg.Retention.Visitors}),
		mailer.New(mailer.FromConfig(cfg), svc).Worker(),
		svc.AssistantWorker(),
		svc.NotifyWorker(),
		svc.SearchIndexWorker(),
		pushSender(cfg, svc).Worker(),
	}, append(append(svc.KnowledgeWorkers(), webhookWorkers(cfg, svc)...), imapWorkers(cfg, svc)...)...)
}

// pushSender sends the dashboard's pushes. Push services want a way to reach
// the operator: the public URL when it is https, else owner_email.
func pushSender(cfg *config.Config, svc *app.Service) *push.Sender {
	subscriber := cfg.PublicURL
	if !strings.HasPrefix(subscriber, "https:") && cfg.OwnerEmail != "" {
		subscriber = cfg.OwnerEmail
	}
	return push.New(svc, push.Options{Subscriber: subscriber, AllowPrivate: cfg.Network.AllowPrivate})
}
