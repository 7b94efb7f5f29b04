package server

import (
	"chatsvc/app"
	"chatsvc/config"
	"chatsvc/webhooks"
)

// webhookOptions passes the webhooks.* settings to the service.
func webhookOptions(cfg *config.Config) app.WebhookOptions {
	w := cfg.Webhooks
	return app.WebhookOptions{Disabled: !w.Enabled, AllowHTTP: w.AllowHTTP, AllowPrivate: cfg.Network.AllowPrivate,
		RetryDelays: w.RetryDelays, GiveUpAfter: w.GiveUpAfter, OwnerEmail: cfg.OwnerEmail,
		Sender: webhookSender(cfg)}
}

func webhookSender(cfg *config.Config) *webhooks.Sender {
	return webhooks.NewSender(webhooks.SenderOptions{AllowPrivate: cfg.Network.AllowPrivate, Timeout: cfg.Webhooks.Timeout})
}

// webhookWorkers fans events out to endpoints and sends what is due. A
// plan without webhooks runs neither; events are kept, and fanned out from
// where it stopped once webhooks are enabled again.
func webhookWorkers(cfg *config.Config, svc *app.Service) []app.Worker {
	if !cfg.Webhooks.Enabled {
		return nil
	}
	return webhooks.New(svc, webhookSender(cfg), webhooks.Options{}).Workers()
}
