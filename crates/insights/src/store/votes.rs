//! A batch's votes into `insights_votes`: one row per comment, the latest
//! vote in the batch winning, and a vote on a comment already voted on
//! replacing the stored one (its vote and minute). A vote needs no stored
//! visit: it names none.

use std::collections::BTreeMap;

use sqlx::{AnyConnection, Arguments};

use crate::{
    event::{Event, Vote},
    lessons,
    rollup::{execute_rows, Marks},
};

/// Rows per statement (as `insert`'s).
const ROWS: usize = 200;

/// Stores the votes among `events`.
pub async fn insert(
    conn: &mut AnyConnection,
    marks: Marks,
    events: &[Event],
) -> Result<(), sqlx::Error> {
    // By comment, in key order (two replicas lock rows in the same order);
    // a comment's later vote in the batch replaces its earlier one (an
    // upsert may touch a row once per statement on PostgreSQL).
    let mut votes: BTreeMap<&str, &Vote> = BTreeMap::new();
    for event in events {
        if let Event::Vote(v) = event {
            votes.insert(v.comment.as_str(), v);
        }
    }
    let votes: Vec<&Vote> = votes.into_values().collect();
    for chunk in votes.chunks(ROWS) {
        let sql = format!(
            "INSERT INTO insights_votes \
             (comment_id, lesson, model, lang, tier, vote, issued_min, at_min) \
             VALUES {} ON CONFLICT (comment_id) DO UPDATE SET vote = excluded.vote, \
             at_min = excluded.at_min",
            marks.tuples(chunk.len(), 8)
        );
        execute_rows(conn, &sql, chunk, ROWS, |args, v| {
            args.add(v.comment.as_str())?;
            args.add(lessons::number(v.lesson))?;
            args.add(v.model.as_str())?;
            args.add(v.lang.code())?;
            args.add(v.tier.code())?;
            args.add(v.verdict.code())?;
            args.add(v.issued.0)?;
            args.add(v.at.0)
        })
        .await?;
    }
    Ok(())
}
