-- The insights' tables (src/insights/store.rs). Portable SQL: the same text
-- runs on SQLite and PostgreSQL. Times are whole minutes since 1970-01-01 UTC
-- (BIGINT); no column holds an address, a user agent or free text.

-- One page load: its random id, language, layout, device class, room.
CREATE TABLE IF NOT EXISTS insights_visits (
    visit_id    TEXT NOT NULL PRIMARY KEY,
    lang        TEXT NOT NULL,
    layout      TEXT NOT NULL,
    device      TEXT NOT NULL,
    room        TEXT,
    started_min BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS insights_visits_started ON insights_visits (started_min);
CREATE INDEX IF NOT EXISTS insights_visits_room ON insights_visits (room, started_min);

-- One attempt: the point asked about and what became of its comment.
CREATE TABLE IF NOT EXISTS insights_attempts (
    visit_id   TEXT NOT NULL,
    attempt    BIGINT NOT NULL,
    lang       TEXT NOT NULL,
    error      DOUBLE PRECISION NOT NULL,
    weight     DOUBLE PRECISION NOT NULL,
    bias       DOUBLE PRECISION NOT NULL,
    model      TEXT NOT NULL,
    outcome    TEXT NOT NULL,
    reason     TEXT,
    latency_ms BIGINT NOT NULL,
    at_min     BIGINT NOT NULL,
    PRIMARY KEY (visit_id, attempt)
);
CREATE INDEX IF NOT EXISTS insights_attempts_at ON insights_attempts (at_min);

-- The tools a visit used: the first minute and how many times.
CREATE TABLE IF NOT EXISTS insights_tools (
    visit_id  TEXT NOT NULL,
    tool      TEXT NOT NULL,
    first_min BIGINT NOT NULL,
    uses      BIGINT NOT NULL,
    PRIMARY KEY (visit_id, tool)
);
CREATE INDEX IF NOT EXISTS insights_tools_first ON insights_tools (first_min);
