package server

import (
	"path/filepath"

	"chatsvc/app"
	"chatsvc/config"
	"chatsvc/files"
	"chatsvc/knowledge"
	"chatsvc/mailer"
	"chatsvc/storage"
)

// NewService builds the service over db with the settings of cfg; serve and
// the provisioning commands share it, so both apply the same rules. With a
// search index (serve) it also crawls, indexes and answers visitors.
func NewService(db *storage.DB, cfg *config.Config, idx *knowledge.Index) *app.Service {
	store := files.New(files.Options{Dir: filepath.Join(cfg.DataDir, "files"), MaxBytes: cfg.Attachments.MaxBytes,
		Timeout: cfg.Attachments.Timeout, AllowPrivate: cfg.Network.AllowPrivate})
	o := app.Options{Files: store, PublicURL: cfg.PublicURL, Webhooks: webhookOptions(cfg),
		Notify:           app.NotifyOptions{WaitingAfter: cfg.Notify.WaitingAfter, VisitorAfter: cfg.Notify.VisitorAfter, AllowHTTP: cfg.Network.AllowPrivate},
		InboundPerSender: cfg.Inbound.PerSender, MailFrom: mailer.Sender(cfg.SMTP.From, cfg.PublicURL)}
	if idx != nil {
		vectors := newVectors(cfg, db)
		o.Knowledge, o.Assistant = knowledgeOptions(cfg, idx, vectors), newAssistant(cfg, idx, vectors)
	}
	return app.New(db, o)
}
