-- Attempts kept in the order they come (crates/insights/src/rollup/recent.rs).
-- Keyed by visit, each batch wrote a page of the table per visit it touched,
-- and that cost grew with the table; in the order they come, a batch's rows
-- are the table's last pages. What the key answered is kept elsewhere: a
-- visit's latest attempts (to refuse a repeated one and to count what became
-- of the comments around a new one) in its sums row, `recent`; its latest
-- point in `last_point`; what became of each comment in the attempt's own row
-- (`followed`, `improved`, `reached`: as 0004 counts them). An attempt also
-- keeps what a report's filter asks of its visit (its start, language and
-- room), so that the reports that count comments read the attempts alone,
-- and a room's only its own.
--
-- The same text on both backends but for three marks the store fills in
-- (crates/insights/src/store/schema.rs): {id} the key's type (SQLite's
-- INTEGER PRIMARY KEY is its rowid), {agg} the aggregate that joins texts,
-- and {error}, {weight}, {weight2}, {bias} those columns of `a` as texts that
-- read back exactly. Lesson 1's goal (450) and
-- lesson 2's (1,420), and the window of eight attempts below a visit's
-- highest (recent.rs: LATE + SOON), are written out as the code has them.

CREATE TABLE insights_attempts_arrival (
    id         {id},
    visit_id   TEXT NOT NULL,
    attempt    BIGINT NOT NULL,
    lesson     BIGINT NOT NULL,
    lang       TEXT NOT NULL,
    error      DOUBLE PRECISION NOT NULL,
    weight     DOUBLE PRECISION NOT NULL,
    weight2    DOUBLE PRECISION NOT NULL,
    bias       DOUBLE PRECISION NOT NULL,
    model      TEXT NOT NULL,
    outcome    TEXT NOT NULL,
    reason     TEXT,
    latency_ms BIGINT NOT NULL,
    at_min     BIGINT NOT NULL,
    started_min BIGINT,
    visit_lang TEXT,
    room       TEXT,
    followed   BIGINT NOT NULL,
    improved   BIGINT NOT NULL,
    reached    BIGINT NOT NULL
);

INSERT INTO insights_attempts_arrival (id, visit_id, attempt, lesson, lang, error, weight,
    weight2, bias, model, outcome, reason, latency_ms, at_min, started_min, visit_lang, room,
    followed, improved, reached)
SELECT ROW_NUMBER() OVER (ORDER BY a.at_min, a.visit_id, a.attempt),
       a.visit_id, a.attempt, a.lesson, a.lang, a.error, a.weight, a.weight2, a.bias,
       a.model, a.outcome, a.reason, a.latency_ms, a.at_min, v.started_min, v.lang, v.room,
       CASE WHEN n.visit_id IS NULL THEN 0 ELSE 1 END,
       CASE WHEN n.error < a.error THEN 1 ELSE 0 END,
       CASE WHEN NOT ((a.lesson = 2 AND a.error < 1420) OR (a.lesson <> 2 AND a.error <= 450))
             AND EXISTS (SELECT 1 FROM insights_attempts g
                 WHERE g.visit_id = a.visit_id AND g.attempt > a.attempt
                   AND g.attempt <= a.attempt + 5
                   AND ((g.lesson = 2 AND g.error < 1420) OR (g.lesson <> 2 AND g.error <= 450)))
            THEN 1 ELSE 0 END
FROM insights_attempts a
LEFT JOIN insights_attempts n ON n.visit_id = a.visit_id AND n.attempt = a.attempt + 1
LEFT JOIN insights_visits v ON v.visit_id = a.visit_id;

-- The next id the writer gives (one row).
CREATE TABLE insights_attempt_ids (next BIGINT NOT NULL);
INSERT INTO insights_attempt_ids (next)
SELECT COALESCE(MAX(id), 0) + 1 FROM insights_attempts_arrival;

-- A visit's latest point (`weight,weight2,bias,error`), and its latest
-- attempts as the writer packs them (`number,id,error,model,lang`, `;`
-- between them). Only visits that may
-- still get attempts (begun within 25 hours of the latest start) need them.
ALTER TABLE insights_visit_sums ADD COLUMN recent TEXT;
ALTER TABLE insights_visit_sums ADD COLUMN last_point TEXT;

CREATE INDEX insights_attempts_migrating ON insights_attempts_arrival (visit_id, attempt);
UPDATE insights_visit_sums SET last_point = (
    SELECT {weight} || ',' || {weight2} || ',' || {bias} || ',' || {error}
    FROM insights_attempts_arrival a
    WHERE a.visit_id = insights_visit_sums.visit_id AND a.attempt = insights_visit_sums.attempts)
WHERE attempts > 0;
UPDATE insights_visit_sums SET recent = (
    SELECT {agg}(w.part, ';') FROM (
        SELECT a.attempt || ',' || a.id || ',' || {error} || ',' || a.model || ',' || a.lang AS part
        FROM insights_attempts_arrival a
        WHERE a.visit_id = insights_visit_sums.visit_id
          AND a.attempt >= insights_visit_sums.attempts - 8) w)
WHERE attempts > 0
  AND started_min >= (SELECT MAX(started_min) FROM insights_visit_sums) - 1505;
DROP INDEX insights_attempts_migrating;

DROP TABLE insights_attempts;
ALTER TABLE insights_attempts_arrival RENAME TO insights_attempts;
CREATE INDEX insights_attempts_at ON insights_attempts (at_min);
CREATE INDEX insights_attempts_room ON insights_attempts (room, at_min) WHERE room IS NOT NULL;
