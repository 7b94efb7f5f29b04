-- Sites become a REST resource: several domains, business hours and the
-- widget's settings, kept as JSON the service reads and writes whole.
ALTER TABLE sites ADD COLUMN domains TEXT NOT NULL DEFAULT '[]';
ALTER TABLE sites ADD COLUMN business_hours TEXT;
ALTER TABLE sites ADD COLUMN widget TEXT NOT NULL DEFAULT '{}';
ALTER TABLE sites ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0;
UPDATE sites SET domains = json_array(domain) WHERE domain IS NOT NULL AND domain != '';
UPDATE sites SET updated_at = created_at;
ALTER TABLE sites DROP COLUMN domain;
