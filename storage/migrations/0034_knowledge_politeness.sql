-- How a source's site is crawled: 'polite' (the configured pause and
-- parallelism) or 'own' (the team's own site: no pause, one request in
-- flight per core). robots.txt is obeyed either way.
ALTER TABLE knowledge_sources ADD COLUMN politeness TEXT NOT NULL DEFAULT 'polite';
