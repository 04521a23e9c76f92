-- What /insights reads instead of every attempt (issue 23: a page over a
-- million visits in under 300 ms on SQLite): per visit its sums, and per UTC
-- day and language the counts each report adds up. Kept up to date by the
-- writer in the transaction that stores the events (src/insights/rollup/);
-- built here from the rows already stored. Portable SQL, like 0001.
--
-- Fixed here as the code has them (tests check both): the goal is 450
-- (lesson::neuron::GOAL), the funnel's rungs 799, 600, 500 and the goal
-- (report::funnel::RUNGS), a tool's bit is 2^(its place in Tool::ALL), a
-- day is a visit's start minute divided by 1440, rounded down.

-- Per visit: the visit's filter fields (NULL until its visit event is
-- stored), its highest attempt number, best error, first attempt at the goal
-- and that attempt's minute, its latest attempt's minute, and its tools.
CREATE TABLE IF NOT EXISTS insights_visit_sums (
    visit_id    TEXT NOT NULL PRIMARY KEY,
    started_min BIGINT,
    lang        TEXT,
    room        TEXT,
    attempts    BIGINT NOT NULL DEFAULT 0,
    best        DOUBLE PRECISION,
    goal_at     BIGINT,
    goal_min    BIGINT,
    last_min    BIGINT,
    tools       BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS insights_visit_sums_started ON insights_visit_sums (started_min);
CREATE INDEX IF NOT EXISTS insights_visit_sums_last ON insights_visit_sums (last_min);
CREATE INDEX IF NOT EXISTS insights_visit_sums_room ON insights_visit_sums (room, started_min);

-- Per day and language: visits, those that attempted, those whose best
-- error is at or below each rung (the last is the goal).
CREATE TABLE IF NOT EXISTS insights_day_visits (
    day       BIGINT NOT NULL,
    lang      TEXT NOT NULL,
    visits    BIGINT NOT NULL,
    attempted BIGINT NOT NULL,
    rung_799  BIGINT NOT NULL,
    rung_600  BIGINT NOT NULL,
    rung_500  BIGINT NOT NULL,
    reached   BIGINT NOT NULL,
    PRIMARY KEY (day, lang)
);
-- Visits by the number of their first attempt at the goal (0: not reached).
CREATE TABLE IF NOT EXISTS insights_day_goal_at (
    day     BIGINT NOT NULL,
    lang    TEXT NOT NULL,
    goal_at BIGINT NOT NULL,
    visits  BIGINT NOT NULL,
    PRIMARY KEY (day, lang, goal_at)
);
-- Visits that reached the goal, by the minutes it took.
CREATE TABLE IF NOT EXISTS insights_day_goal_minutes (
    day     BIGINT NOT NULL,
    lang    TEXT NOT NULL,
    minutes BIGINT NOT NULL,
    visits  BIGINT NOT NULL,
    PRIMARY KEY (day, lang, minutes)
);
-- Visits that used a tool, by their first attempt at the goal (0: not reached).
CREATE TABLE IF NOT EXISTS insights_day_tools (
    day     BIGINT NOT NULL,
    lang    TEXT NOT NULL,
    tool    TEXT NOT NULL,
    goal_at BIGINT NOT NULL,
    visits  BIGINT NOT NULL,
    PRIMARY KEY (day, lang, tool, goal_at)
);
-- The visits' comments by model, comment language, outcome and reason ('': none).
CREATE TABLE IF NOT EXISTS insights_day_comments (
    day          BIGINT NOT NULL,
    lang         TEXT NOT NULL,
    model        TEXT NOT NULL,
    comment_lang TEXT NOT NULL,
    outcome      TEXT NOT NULL,
    reason       TEXT NOT NULL,
    comments     BIGINT NOT NULL,
    PRIMARY KEY (day, lang, model, comment_lang, outcome, reason)
);
-- The visits' comments by model, comment language and latency.
CREATE TABLE IF NOT EXISTS insights_day_latency (
    day          BIGINT NOT NULL,
    lang         TEXT NOT NULL,
    model        TEXT NOT NULL,
    comment_lang TEXT NOT NULL,
    latency_ms   BIGINT NOT NULL,
    comments     BIGINT NOT NULL,
    PRIMARY KEY (day, lang, model, comment_lang, latency_ms)
);

-- From here on, latencies are kept to two significant digits (1,234 ms as
-- 1,200): what a p50 or p95 needs, and few enough values per day to count.
UPDATE insights_attempts SET latency_ms = CASE
    WHEN latency_ms < 100 THEN latency_ms
    WHEN latency_ms < 1000 THEN latency_ms / 10 * 10
    WHEN latency_ms < 10000 THEN latency_ms / 100 * 100
    WHEN latency_ms < 100000 THEN latency_ms / 1000 * 1000
    ELSE latency_ms / 10000 * 10000 END
WHERE latency_ms >= 100;

-- The sums of what is stored: every visit, and every visit id an attempt or
-- a tool names without its visit (its sums wait for the visit).
INSERT INTO insights_visit_sums (visit_id, started_min, lang, room)
SELECT visit_id, started_min, lang, room FROM insights_visits;
INSERT INTO insights_visit_sums (visit_id)
SELECT DISTINCT visit_id FROM insights_attempts WHERE true
ON CONFLICT (visit_id) DO NOTHING;
INSERT INTO insights_visit_sums (visit_id)
SELECT DISTINCT visit_id FROM insights_tools WHERE true
ON CONFLICT (visit_id) DO NOTHING;
UPDATE insights_visit_sums SET
    attempts = COALESCE((SELECT MAX(a.attempt) FROM insights_attempts a
        WHERE a.visit_id = insights_visit_sums.visit_id), 0),
    best = (SELECT MIN(a.error) FROM insights_attempts a
        WHERE a.visit_id = insights_visit_sums.visit_id),
    goal_at = (SELECT MIN(a.attempt) FROM insights_attempts a
        WHERE a.visit_id = insights_visit_sums.visit_id AND a.error <= 450),
    last_min = (SELECT MAX(a.at_min) FROM insights_attempts a
        WHERE a.visit_id = insights_visit_sums.visit_id),
    tools = COALESCE((SELECT SUM(CASE t.tool
            WHEN 'descent_lab' THEN 1 WHEN 'map' THEN 2 WHEN 'best_response' THEN 4
            WHEN 'nudge' THEN 8 WHEN 'typed_value' THEN 16 WHEN 'shared_link' THEN 32
            WHEN 'language_switch' THEN 64 ELSE 0 END)
        FROM insights_tools t WHERE t.visit_id = insights_visit_sums.visit_id), 0);
UPDATE insights_visit_sums SET goal_min = (SELECT a.at_min FROM insights_attempts a
    WHERE a.visit_id = insights_visit_sums.visit_id AND a.attempt = insights_visit_sums.goal_at)
WHERE goal_at IS NOT NULL;

-- The days' counts, from the sums (visits whose visit event is stored).
INSERT INTO insights_day_visits
    (day, lang, visits, attempted, rung_799, rung_600, rung_500, reached)
SELECT (started_min - (started_min % 1440 + 1440) % 1440) / 1440, lang, COUNT(*), COUNT(best),
    COUNT(CASE WHEN best <= 799 THEN 1 END), COUNT(CASE WHEN best <= 600 THEN 1 END),
    COUNT(CASE WHEN best <= 500 THEN 1 END), COUNT(goal_at)
FROM insights_visit_sums WHERE started_min IS NOT NULL
GROUP BY (started_min - (started_min % 1440 + 1440) % 1440) / 1440, lang;
INSERT INTO insights_day_goal_at (day, lang, goal_at, visits)
SELECT (started_min - (started_min % 1440 + 1440) % 1440) / 1440, lang, COALESCE(goal_at, 0), COUNT(*)
FROM insights_visit_sums WHERE started_min IS NOT NULL
GROUP BY (started_min - (started_min % 1440 + 1440) % 1440) / 1440, lang, COALESCE(goal_at, 0);
INSERT INTO insights_day_goal_minutes (day, lang, minutes, visits)
SELECT (started_min - (started_min % 1440 + 1440) % 1440) / 1440, lang, goal_min - started_min, COUNT(*)
FROM insights_visit_sums WHERE started_min IS NOT NULL AND goal_at IS NOT NULL
GROUP BY (started_min - (started_min % 1440 + 1440) % 1440) / 1440, lang, goal_min - started_min;
INSERT INTO insights_day_tools (day, lang, tool, goal_at, visits)
SELECT (s.started_min - (s.started_min % 1440 + 1440) % 1440) / 1440, s.lang, b.tool,
    COALESCE(s.goal_at, 0), COUNT(*)
FROM insights_visit_sums s
JOIN (SELECT 'descent_lab' AS tool, 1 AS bit UNION ALL SELECT 'map', 2
    UNION ALL SELECT 'best_response', 4 UNION ALL SELECT 'nudge', 8
    UNION ALL SELECT 'typed_value', 16 UNION ALL SELECT 'shared_link', 32
    UNION ALL SELECT 'language_switch', 64) b ON (s.tools & b.bit) <> 0
WHERE s.started_min IS NOT NULL
GROUP BY (s.started_min - (s.started_min % 1440 + 1440) % 1440) / 1440, s.lang, b.tool,
    COALESCE(s.goal_at, 0);
INSERT INTO insights_day_comments (day, lang, model, comment_lang, outcome, reason, comments)
SELECT (s.started_min - (s.started_min % 1440 + 1440) % 1440) / 1440, s.lang, a.model, a.lang,
    a.outcome, COALESCE(a.reason, ''), COUNT(*)
FROM insights_visit_sums s JOIN insights_attempts a ON a.visit_id = s.visit_id
WHERE s.started_min IS NOT NULL
GROUP BY (s.started_min - (s.started_min % 1440 + 1440) % 1440) / 1440, s.lang, a.model, a.lang,
    a.outcome, COALESCE(a.reason, '');
INSERT INTO insights_day_latency (day, lang, model, comment_lang, latency_ms, comments)
SELECT (s.started_min - (s.started_min % 1440 + 1440) % 1440) / 1440, s.lang, a.model, a.lang,
    a.latency_ms, COUNT(*)
FROM insights_visit_sums s JOIN insights_attempts a ON a.visit_id = s.visit_id
WHERE s.started_min IS NOT NULL
GROUP BY (s.started_min - (s.started_min % 1440 + 1440) % 1440) / 1440, s.lang, a.model, a.lang,
    a.latency_ms;
