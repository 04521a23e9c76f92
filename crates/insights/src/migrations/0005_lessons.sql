-- Every lesson recorded apart (crates/insights/src/lessons.rs): a visit is
-- of one lesson (its page: / is 1, /two is 2), its attempts and its sums too,
-- and every day count is kept per lesson. What was stored before is lesson 1.
-- Portable SQL, like 0001: the day tables gain the lesson in their key by
-- being made again, and the funnel's rungs, which differ by lesson, are
-- numbered (rung_1 to rung_3, above the goal) instead of named by value.

ALTER TABLE insights_visits ADD COLUMN lesson BIGINT NOT NULL DEFAULT 1;
-- Lesson 2's point: weight is w1, weight2 is w2, bias is b (weight2 is 0 in
-- lesson 1, whose neuron has no second input).
ALTER TABLE insights_attempts ADD COLUMN lesson BIGINT NOT NULL DEFAULT 1;
ALTER TABLE insights_attempts ADD COLUMN weight2 DOUBLE PRECISION NOT NULL DEFAULT 0;
-- NULL until the visit's event is stored, like its language.
ALTER TABLE insights_visit_sums ADD COLUMN lesson BIGINT;
UPDATE insights_visit_sums SET lesson = 1 WHERE started_min IS NOT NULL;
ALTER TABLE insights_votes ADD COLUMN lesson BIGINT NOT NULL DEFAULT 1;

CREATE TABLE insights_day_visits_by_lesson (
    day       BIGINT NOT NULL,
    lesson    BIGINT NOT NULL,
    lang      TEXT NOT NULL,
    visits    BIGINT NOT NULL,
    attempted BIGINT NOT NULL,
    rung_1    BIGINT NOT NULL,
    rung_2    BIGINT NOT NULL,
    rung_3    BIGINT NOT NULL,
    reached   BIGINT NOT NULL,
    PRIMARY KEY (day, lesson, lang)
);
INSERT INTO insights_day_visits_by_lesson
SELECT day, 1, lang, visits, attempted, rung_799, rung_600, rung_500, reached
FROM insights_day_visits;
DROP TABLE insights_day_visits;
ALTER TABLE insights_day_visits_by_lesson RENAME TO insights_day_visits;

CREATE TABLE insights_day_goal_at_by_lesson (
    day     BIGINT NOT NULL,
    lesson  BIGINT NOT NULL,
    lang    TEXT NOT NULL,
    goal_at BIGINT NOT NULL,
    visits  BIGINT NOT NULL,
    PRIMARY KEY (day, lesson, lang, goal_at)
);
INSERT INTO insights_day_goal_at_by_lesson
SELECT day, 1, lang, goal_at, visits FROM insights_day_goal_at;
DROP TABLE insights_day_goal_at;
ALTER TABLE insights_day_goal_at_by_lesson RENAME TO insights_day_goal_at;

CREATE TABLE insights_day_goal_minutes_by_lesson (
    day     BIGINT NOT NULL,
    lesson  BIGINT NOT NULL,
    lang    TEXT NOT NULL,
    minutes BIGINT NOT NULL,
    visits  BIGINT NOT NULL,
    PRIMARY KEY (day, lesson, lang, minutes)
);
INSERT INTO insights_day_goal_minutes_by_lesson
SELECT day, 1, lang, minutes, visits FROM insights_day_goal_minutes;
DROP TABLE insights_day_goal_minutes;
ALTER TABLE insights_day_goal_minutes_by_lesson RENAME TO insights_day_goal_minutes;

CREATE TABLE insights_day_tools_by_lesson (
    day     BIGINT NOT NULL,
    lesson  BIGINT NOT NULL,
    lang    TEXT NOT NULL,
    tool    TEXT NOT NULL,
    goal_at BIGINT NOT NULL,
    visits  BIGINT NOT NULL,
    PRIMARY KEY (day, lesson, lang, tool, goal_at)
);
INSERT INTO insights_day_tools_by_lesson
SELECT day, 1, lang, tool, goal_at, visits FROM insights_day_tools;
DROP TABLE insights_day_tools;
ALTER TABLE insights_day_tools_by_lesson RENAME TO insights_day_tools;

CREATE TABLE insights_day_comments_by_lesson (
    day          BIGINT NOT NULL,
    lesson       BIGINT NOT NULL,
    lang         TEXT NOT NULL,
    model        TEXT NOT NULL,
    comment_lang TEXT NOT NULL,
    outcome      TEXT NOT NULL,
    reason       TEXT NOT NULL,
    comments     BIGINT NOT NULL,
    PRIMARY KEY (day, lesson, lang, model, comment_lang, outcome, reason)
);
INSERT INTO insights_day_comments_by_lesson
SELECT day, 1, lang, model, comment_lang, outcome, reason, comments FROM insights_day_comments;
DROP TABLE insights_day_comments;
ALTER TABLE insights_day_comments_by_lesson RENAME TO insights_day_comments;

CREATE TABLE insights_day_latency_by_lesson (
    day          BIGINT NOT NULL,
    lesson       BIGINT NOT NULL,
    lang         TEXT NOT NULL,
    model        TEXT NOT NULL,
    comment_lang TEXT NOT NULL,
    latency_ms   BIGINT NOT NULL,
    comments     BIGINT NOT NULL,
    PRIMARY KEY (day, lesson, lang, model, comment_lang, latency_ms)
);
INSERT INTO insights_day_latency_by_lesson
SELECT day, 1, lang, model, comment_lang, latency_ms, comments FROM insights_day_latency;
DROP TABLE insights_day_latency;
ALTER TABLE insights_day_latency_by_lesson RENAME TO insights_day_latency;

CREATE TABLE insights_day_teaching_by_lesson (
    day          BIGINT NOT NULL,
    lesson       BIGINT NOT NULL,
    lang         TEXT NOT NULL,
    model        TEXT NOT NULL,
    comment_lang TEXT NOT NULL,
    comments     BIGINT NOT NULL,
    followed     BIGINT NOT NULL,
    improved     BIGINT NOT NULL,
    above        BIGINT NOT NULL,
    reached      BIGINT NOT NULL,
    PRIMARY KEY (day, lesson, lang, model, comment_lang)
);
INSERT INTO insights_day_teaching_by_lesson
SELECT day, 1, lang, model, comment_lang, comments, followed, improved, above, reached
FROM insights_day_teaching;
DROP TABLE insights_day_teaching;
ALTER TABLE insights_day_teaching_by_lesson RENAME TO insights_day_teaching;

-- Lesson 2's attempts at its goal (below 1,420), as 0004's index has lesson 1's.
CREATE INDEX IF NOT EXISTS insights_attempts_goal_two ON insights_attempts (visit_id, attempt)
    WHERE lesson = 2 AND error < 1420;
