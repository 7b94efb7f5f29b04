-- Embedding vectors of knowledge chunks, when an embeddings server is
-- configured: kept here so a restart or a rebuilt index never asks the
-- server again. A chunk replaced by a sync loses its vector (cascade), and
-- a vector of another model counts as missing.
CREATE TABLE knowledge_vectors (
    source_id TEXT NOT NULL,
    seq       INTEGER NOT NULL,
    model     TEXT NOT NULL,
    -- little-endian float32s, unit length
    vector    BLOB NOT NULL,
    PRIMARY KEY (source_id, seq),
    FOREIGN KEY (source_id, seq) REFERENCES knowledge_chunks (source_id, seq) ON DELETE CASCADE
) WITHOUT ROWID;
