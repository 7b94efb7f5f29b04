package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"chatsvc/app"
	"chatsvc/config"
	"chatsvc/crawler"
	"chatsvc/search"
)

// openKnowledge opens the search index in the data dir and wires crawling
// and indexing into svc. The caller closes the index after the workers stop.
// An empty index beside a database with pages (a lost or deleted index
// folder) is refilled by the index worker.
func openKnowledge(ctx context.Context, cfg *config.Config, svc *app.Service) (*search.Index, error) {
	idx, err := search.Open(cfg.DataDir)
	if errors.Is(err, search.ErrInUse) {
		return nil, fmt.Errorf("%w (is another chatsvc serve running on %s?)", err, cfg.DataDir)
	} else if err != nil {
		return nil, err
	}
	svc.UseKnowledge(app.Knowledge{Index: idx, Crawler: crawlerOptions(cfg),
		SyncMinInterval: cfg.Knowledge.SyncMinInterval, NightlyAt: cfg.Knowledge.NightlyAt})
	docs, err := idx.Count()
	if err == nil && docs == 0 {
		var n int64
		if n, err = svc.RefillKnowledgeIndex(ctx); n > 0 {
			slog.Info("search index is empty: refilling it from the database", "sources", n)
		}
	}
	if err != nil {
		idx.Close()
		return nil, err
	}
	return idx, nil
}

func crawlerOptions(cfg *config.Config) crawler.Options {
	c := cfg.Crawler
	return crawler.Options{MaxPages: c.MaxPages, MaxDepth: c.MaxDepth, RespectRobots: c.RespectRobots, Delay: c.Delay,
		Parallelism: c.Parallelism, Timeout: c.Timeout, MaxPageBytes: c.MaxPageBytes,
		AllowPrivate: cfg.Network.AllowPrivate}
}
