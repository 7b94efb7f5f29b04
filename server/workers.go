package server

import (
	"context"
	"time"

	"chatsvc/app"
	"chatsvc/config"
	"chatsvc/mailer"
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
	}, append(svc.KnowledgeWorkers(), webhookWorkers(cfg, svc)...)...)
}
