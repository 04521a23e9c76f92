-- What teaches: the visitors' votes on comments, and what became of each
-- comment's visit (crates/insights/src/rollup/teaching.rs). Portable SQL, like 0001.

-- One row per comment voted on: what its id names (its random number, the
-- model that wrote it or 'offline', its language and tier), the vote ('up'
-- or 'down': a second vote replaces the first) and the minutes the comment
-- was written and the vote cast. Nothing of the visit or the person.
CREATE TABLE IF NOT EXISTS insights_votes (
    comment_id TEXT NOT NULL PRIMARY KEY,
    model      TEXT NOT NULL,
    lang       TEXT NOT NULL,
    tier       TEXT NOT NULL,
    vote       TEXT NOT NULL,
    issued_min BIGINT NOT NULL,
    at_min     BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS insights_votes_at ON insights_votes (at_min);

-- Per day (of the visit's start) and language, model and comment language:
-- the comments; those the visit followed with another attempt, and of those
-- the ones whose next attempt's error was lower; those made above the goal
-- (450), and of those the ones whose visit reached it within its next five
-- attempts. Kept by the writer as attempts arrive, in any order.
CREATE TABLE IF NOT EXISTS insights_day_teaching (
    day          BIGINT NOT NULL,
    lang         TEXT NOT NULL,
    model        TEXT NOT NULL,
    comment_lang TEXT NOT NULL,
    comments     BIGINT NOT NULL,
    followed     BIGINT NOT NULL,
    improved     BIGINT NOT NULL,
    above        BIGINT NOT NULL,
    reached      BIGINT NOT NULL,
    PRIMARY KEY (day, lang, model, comment_lang)
);

-- The attempts at the goal, by visit and number: what "reached it within
-- five attempts" looks for (from the rows: a report that cuts a day, a
-- purge's recount) without reading the other nine in ten.
CREATE INDEX IF NOT EXISTS insights_attempts_goal ON insights_attempts (visit_id, attempt)
    WHERE error <= 450;

-- The same from the attempts already stored.
INSERT INTO insights_day_teaching
    (day, lang, model, comment_lang, comments, followed, improved, above, reached)
SELECT s.started_min / 1440, s.lang, a.model, a.lang, COUNT(*),
       SUM(CASE WHEN n.visit_id IS NULL THEN 0 ELSE 1 END),
       SUM(CASE WHEN n.error < a.error THEN 1 ELSE 0 END),
       SUM(CASE WHEN a.error > 450 THEN 1 ELSE 0 END),
       SUM(CASE WHEN a.error > 450 AND EXISTS (
           SELECT 1 FROM insights_attempts g
           WHERE g.visit_id = a.visit_id AND g.attempt > a.attempt
             AND g.attempt <= a.attempt + 5 AND g.error <= 450) THEN 1 ELSE 0 END)
FROM insights_attempts a
JOIN insights_visit_sums s ON s.visit_id = a.visit_id
LEFT JOIN insights_attempts n ON n.visit_id = a.visit_id AND n.attempt = a.attempt + 1
WHERE s.started_min IS NOT NULL AND s.lang IS NOT NULL
GROUP BY s.started_min / 1440, s.lang, a.model, a.lang;
