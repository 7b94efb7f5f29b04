package server

import (
	"path/filepath"

	"chatsvc/app"
	"chatsvc/config"
	"chatsvc/files"
	"chatsvc/storage"
)

// NewService builds the service over db with the settings of cfg; serve and
// the provisioning commands share it, so both apply the same rules.
func NewService(db *storage.DB, cfg *config.Config) *app.Service {
	store := files.New(files.Options{Dir: filepath.Join(cfg.DataDir, "files"), MaxBytes: cfg.Attachments.MaxBytes,
		Timeout: cfg.Attachments.Timeout, AllowPrivate: cfg.Network.AllowPrivate})
	return app.New(db, app.Options{Files: store, PublicURL: cfg.PublicURL, Webhooks: webhookOptions(cfg)})
}
