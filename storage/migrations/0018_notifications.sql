-- Notifications for the team: the e-mail alert of a conversation left waiting
-- (one per conversation), the members' Web Push subscriptions, and the pushes
-- queued for them until the push service accepts them.
CREATE TABLE waiting_alerts (
    conversation_id TEXT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
    mode            TEXT NOT NULL,
    waiting_since   INTEGER NOT NULL,
    due_at          INTEGER NOT NULL,
    status          TEXT NOT NULL -- pending, sent, skipped
) WITHOUT ROWID;
CREATE INDEX waiting_alerts_due ON waiting_alerts (due_at) WHERE status = 'pending';

CREATE TABLE push_subscriptions (
    id         TEXT PRIMARY KEY,
    member_id  TEXT NOT NULL REFERENCES members (id) ON DELETE CASCADE,
    endpoint   TEXT NOT NULL UNIQUE,
    p256dh     TEXT NOT NULL,
    auth       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX push_subscriptions_member ON push_subscriptions (member_id);

CREATE TABLE pushes (
    id              TEXT PRIMARY KEY,
    subscription_id TEXT NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    payload         TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    created_at      INTEGER NOT NULL
);
CREATE INDEX pushes_due ON pushes (next_attempt_at);
