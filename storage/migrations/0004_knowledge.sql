-- Knowledge sources: what the assistant answers from. The page text lives
-- here too (knowledge_chunks), so the search index can be rebuilt from the
-- database alone.

CREATE TABLE knowledge_sources (
    id                   TEXT PRIMARY KEY,
    mode                 TEXT NOT NULL CHECK (mode IN ('live', 'test')),
    type                 TEXT NOT NULL CHECK (type IN ('url', 'sitemap', 'text')),
    name                 TEXT NOT NULL,
    url                  TEXT,
    content              TEXT,
    -- NULL: the source serves every site.
    site_id              TEXT REFERENCES sites (id),
    status               TEXT NOT NULL,
    page_count           INTEGER NOT NULL DEFAULT 0,
    last_synced_at       INTEGER,
    -- Why the last sync failed, for the team; never part of the API object.
    failure_reason       TEXT,
    -- Set while a sync is owed (creation, the sync endpoint, the nightly
    -- run) and cleared when it is done; a sync cut short by a crash is
    -- therefore still owed at the next start.
    sync_requested_at    INTEGER,
    -- When the latest sync was asked for: sync_min_interval counts from it.
    last_sync_request_at INTEGER NOT NULL,
    created_at           INTEGER NOT NULL
);
CREATE INDEX knowledge_sources_created ON knowledge_sources (mode, created_at, id);
CREATE INDEX knowledge_sources_due ON knowledge_sources (sync_requested_at, id) WHERE sync_requested_at IS NOT NULL;

-- The chunks of a source's pages, as the last successful sync read them.
CREATE TABLE knowledge_chunks (
    source_id TEXT NOT NULL REFERENCES knowledge_sources (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    url       TEXT NOT NULL,
    title     TEXT NOT NULL,
    heading   TEXT NOT NULL,
    text      TEXT NOT NULL,
    PRIMARY KEY (source_id, seq)
) WITHOUT ROWID;

-- Sources whose documents in the search index must be brought in line
-- with the database (after a sync or a deletion). No foreign key: a
-- deleted source stays queued until its documents are gone. version tells
-- a worker whether the source was queued again while it worked.
CREATE TABLE knowledge_index_queue (
    source_id TEXT PRIMARY KEY,
    version   INTEGER NOT NULL DEFAULT 1
);
