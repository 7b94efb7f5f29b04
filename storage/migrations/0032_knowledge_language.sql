-- The language of a source's pages: a source's own (a BCP 47 tag the team
-- gave; NULL: each page's), and each chunk's as its page said or as it was
-- detected, which decides how the search index analyses its words.
ALTER TABLE knowledge_sources ADD COLUMN language TEXT;
ALTER TABLE knowledge_chunks ADD COLUMN lang TEXT NOT NULL DEFAULT '';
