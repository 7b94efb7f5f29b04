package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"chatsvc/app"
	"chatsvc/config"
	"chatsvc/crawler"
	"chatsvc/knowledge"
)

// openIndex opens the search index in the data dir; the caller closes it
// after the workers stop.
func openIndex(cfg *config.Config) (*knowledge.Index, error) {
	idx, err := knowledge.Open(cfg.DataDir)
	if errors.Is(err, knowledge.ErrInUse) {
		return nil, fmt.Errorf("%w (is another chatsvc serve running on %s?)", err, cfg.DataDir)
	}
	return idx, err
}

// knowledgeOptions wires crawling and indexing into idx.
func knowledgeOptions(cfg *config.Config, idx *knowledge.Index, vectors *app.Vectors) *app.Knowledge {
	return &app.Knowledge{Index: idx, Crawler: crawlerOptions(cfg), Vectors: vectors,
		SyncMinInterval: cfg.Knowledge.SyncMinInterval, NightlyAt: cfg.Knowledge.NightlyAt}
}

// refillIndex queues every source with pages for the index worker when the
// index is empty beside a database with pages (a lost or deleted index folder).
func refillIndex(ctx context.Context, svc *app.Service, idx *knowledge.Index) error {
	docs, err := idx.Count()
	if err != nil || docs > 0 {
		return err
	}
	n, err := svc.RefillKnowledgeIndex(ctx)
	if n > 0 {
		slog.Info("search index is empty: refilling it from the database", "sources", n)
	}
	return err
}

func crawlerOptions(cfg *config.Config) crawler.Options {
	c := cfg.Crawler
	return crawler.Options{MaxPages: c.MaxPages, MaxDepth: c.MaxDepth, RespectRobots: c.RespectRobots, Delay: c.Delay,
		Parallelism: c.Parallelism, Timeout: c.Timeout, MaxPageBytes: c.MaxPageBytes,
		AllowPrivate: cfg.Network.AllowPrivate}
}
