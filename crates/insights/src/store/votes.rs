//! A batch's votes into `insights_votes`: one row per comment, the latest
//! vote in the batch winning, and a vote on a comment already voted on
//! replacing the stored one (its vote and minute). A vote needs no stored
//! visit: it names none.

use std::collections::BTreeMap;

use crate::{
    db::{Db, Marks},
    event::{Event, Vote},
    lessons,
    sink::StoreError,
};

/// Stores the votes among `events`.
pub async fn insert(db: &mut Db<'_>, events: &[Event]) -> Result<(), StoreError> {
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
    let sql = |marks: Marks, n| {
        format!(
            "INSERT INTO insights_votes \
             (comment_id, lesson, model, lang, tier, vote, issued_min, at_min) \
             VALUES {} ON CONFLICT (comment_id) DO UPDATE SET vote = excluded.vote, \
             at_min = excluded.at_min",
            marks.tuples(n, 8)
        )
    };
    db.rows(&votes, sql, |values, v| {
        values.text(v.comment.as_str());
        values.int(lessons::number(v.lesson));
        values.text(v.model.as_str());
        values.text(v.lang.code());
        values.text(v.tier.code());
        values.text(v.verdict.code());
        values.int(v.issued.0);
        values.int(v.at.0);
    })
    .await
}
