//! What teaches, on the hand-made history (`data.rs`) and a few votes:
//! every count worked out by hand from its table.
//!
//! After each comment (visit: attempt error → next error): qwen/en v1 799.09
//! → 620, v1 620 → 449, v2 900 → 700 (3 comments, 3 followed, 3 improved, 3
//! above the goal, 2 reached it within five: v1's); offline/en v1 449 →
//! 447.5 (at the goal), v2 700 (last: 2, 1, 1, 1 above, 0 reached);
//! llama/en v1 447.5 (last), v7 560 (last: 2, 0, 0, 1, 0); qwen/pt v3 550 →
//! 480 (1, 1, 1, 1, 1: 450 at #3); llama/pt v3 480 → 450, v3 450 (2, 1, 1,
//! 1, 1); qwen/zh v4 440 (1, 0, 0, 0, 0).

use super::{
    data::{history, period},
    on_both, TestDb,
};
use crate::{
    report::{
        share::{Difference, Share},
        teaching::TeachingRow,
    },
    sink::Sink,
    CommentKey, Event, Filter, Minute, ModelName, RoomCode, Tier, Verdict, Vote,
};
use vocabulary::Lang;

on_both!(outcomes_and_votes, a_second_vote_replaces_the_first);

fn vote(key: &str, model: &str, lang: Lang, verdict: Verdict, at: i64) -> Event {
    let at = Minute(period().from.0 + at);
    Event::Vote(Vote {
        comment: CommentKey::parse(key).expect("a key"),
        lesson: lesson::lessons::Which::One,
        model: ModelName::parse(model).expect("a model"),
        lang,
        tier: Tier::Close,
        verdict,
        issued: at,
        at,
    })
}

fn row(model: &str, lang: Lang, comments: u64, helpful: (u64, u64), o: [u64; 4]) -> TeachingRow {
    TeachingRow {
        model: model.into(),
        lang,
        comments,
        helpful: Share::new(helpful.0, helpful.1),
        improved: Share::new(o[1], o[0]),
        reached: Share::new(o[3], o[2]),
    }
}

async fn outcomes_and_votes(db: &TestDb) {
    let s = &db.store;
    s.write(&history()).await.expect("the history");
    s.write(&[
        vote("00000000000000a1", "qwen", Lang::En, Verdict::Up, 5),
        vote("00000000000000a2", "qwen", Lang::En, Verdict::Up, 6),
        vote("00000000000000a3", "qwen", Lang::En, Verdict::Down, 7),
        vote("00000000000000b1", "offline", Lang::Pt, Verdict::Down, 8),
        // Outside the period: not counted.
        vote("00000000000000c1", "qwen", Lang::En, Verdict::Down, -100),
    ])
    .await
    .expect("votes");
    let report = s.teaching(&period()).await.expect("teaching");
    assert!(report.votes);
    use Lang::*;
    assert_eq!(
        report.rows,
        vec![
            row("llama", En, 2, (0, 0), [0, 0, 1, 0]),
            row("offline", En, 2, (0, 0), [1, 1, 1, 0]),
            row("qwen", En, 3, (2, 3), [3, 3, 3, 2]),
            row("llama", Pt, 2, (0, 0), [1, 1, 1, 1]),
            // Voted on, never in a visit of the period.
            row("offline", Pt, 0, (0, 1), [0, 0, 0, 0]),
            row("qwen", Pt, 1, (0, 0), [1, 1, 1, 1]),
            row("qwen", Zh, 1, (0, 0), [0, 0, 0, 0]),
        ]
    );
    let qwen = &report.rows[2];
    let offline = report.offline(En).expect("the built-in coach in English");
    assert_eq!(
        qwen.against(offline, |r| r.improved),
        Difference::WithinNoise
    );
    assert_eq!(qwen.against(offline, |r| r.helpful), Difference::Unknown);
    // A room's visits: their outcomes; votes are not kept by room.
    let room = Filter {
        room: Some(RoomCode::parse("class-7b").expect("a room")),
        ..period()
    };
    let report = s.teaching(&room).await.expect("a room's");
    assert!(!report.votes);
    assert!(report.rows.iter().all(|r| r.helpful.of == 0));
    assert_eq!(report.rows.iter().map(|r| r.comments).sum::<u64>(), 7);
    // A language: its visits' comments and its comments' votes.
    let pt = Filter {
        lang: Some(Pt),
        ..period()
    };
    let report = s.teaching(&pt).await.expect("Portuguese");
    assert_eq!(report.rows.len(), 3);
    assert_eq!(
        report.offline(Pt).map(|r| r.helpful),
        Some(Share::new(0, 1))
    );
}

async fn a_second_vote_replaces_the_first(db: &TestDb) {
    let s = &db.store;
    let key = "0123456789abcdef";
    // Up, then down in the same batch: the later one stands.
    s.write(&[
        vote(key, "qwen", Lang::En, Verdict::Up, 1),
        vote(key, "qwen", Lang::En, Verdict::Down, 2),
    ])
    .await
    .expect("a batch");
    // Up again in a later batch replaces it.
    s.write(&[vote(key, "qwen", Lang::En, Verdict::Up, 3)])
        .await
        .expect("a later batch");
    let stored: Vec<(String, String, i64)> =
        sqlx::query_as("SELECT comment_id, vote, at_min FROM insights_votes")
            .fetch_all(&s.pool)
            .await
            .expect("votes");
    assert_eq!(
        stored,
        vec![(key.to_string(), "up".to_string(), period().from.0 + 3)]
    );
    // A purge takes votes cast before its cutoff.
    s.purge_before(Minute(period().from.0 + 4))
        .await
        .expect("purged");
    let report = s.teaching(&period()).await.expect("teaching");
    assert!(report.rows.is_empty());
}
