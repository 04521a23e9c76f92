-- The class rooms a teacher created (POST /insights/rooms): a visit that
-- names a room is recorded in it only when the room is here and has a free
-- seat (src/insights/rooms.rs). A code is random (insights::rooms::new_code);
-- a room has a size (the learners it seats at once) and the minute it was
-- made. Portable SQL, like 0001.
CREATE TABLE IF NOT EXISTS insights_rooms (
    code        TEXT NOT NULL PRIMARY KEY,
    size        BIGINT NOT NULL,
    created_min BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS insights_rooms_created ON insights_rooms (created_min);
