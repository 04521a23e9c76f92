//! Waiting is a failure too. A one-at-a-time model (as
//! llama.cpp's server) with its own `max_concurrency`, visitors arriving at
//! once, on tokio's paused clock.

use std::sync::Arc;

use futures::future::join_all;

use super::*;
use crate::{
    input::CoachInput,
    providers::fake::{answers, Behaviour, Fake},
    Comment, Outcome,
};

use super::test_support::{input, visitor};

/// A coach with one local model `m` (5 s timeout, 5 s deadline) that serves
/// one call at a time, taking `ms` each; `limit` is its `max_concurrency`.
fn one_at_a_time(ms: u64, limit: Option<u32>) -> Coach {
    let fake = Fake::default();
    fake.set(
        "m",
        Behaviour {
            one_at_a_time: true,
            ..answers(ms)
        },
    );
    let limit = limit.map_or(String::new(), |n| format!("max_concurrency = {n}\n"));
    let registry = Registry::parse(&format!(
        "deadline_ms = 5000\n[[models]]\nalias = \"m\"\nmodel = \"org/m\"\napi = \"chat\"\n\
         base_url = \"http://127.0.0.1:8080/v1\"\ntimeout_ms = 5000\n{limit}"
    ))
    .unwrap();
    Coach::new(registry, None, Arc::new(fake), Some(1))
}

fn outcomes(c: &Comment) -> Vec<String> {
    c.tried.iter().map(|t| t.outcome.to_string()).collect()
}

/// Twelve visitors at once, numbered from `first`.
async fn twelve_at_once(coach: &Coach, first: usize) -> Vec<Comment> {
    join_all((first..first + 12).map(|i| coach.comment(input(i), visitor(i)))).await
}

/// Latencies of the comments served by the model, and of the offline ones.
fn latencies(comments: &[Comment]) -> (Vec<u64>, Vec<u64>) {
    let mut served: Vec<u64> = comments
        .iter()
        .filter(|c| !c.fallback)
        .map(|c| c.latency_ms)
        .collect();
    served.sort_unstable();
    let offline = comments
        .iter()
        .filter(|c| c.fallback)
        .map(|c| c.latency_ms)
        .collect();
    (served, offline)
}

/// Without a queue the same burst gave 5 comments from the model
/// (1–5 s), 4 offline at once (the global 8 calls at once), and 3 visitors
/// who waited the whole 5 s for an offline comment, after which the breaker
/// of a model that was only busy was open.
#[tokio::test(start_paused = true)]
async fn twelve_visitors_at_once_against_a_one_at_a_time_model_wait_no_longer_than_its_pace_allows()
{
    let coach = one_at_a_time(1000, Some(8));
    // Three visitors one after another: the model's pace, 1 s, is known.
    for i in 0..3 {
        let c = coach.comment(input(i), visitor(i)).await;
        assert_eq!((c.fallback, c.latency_ms), (false, 1000));
    }
    let comments = twelve_at_once(&coach, 10).await;
    let (served, offline) = latencies(&comments);
    // Behind 3 others a call ends at 4 s; behind 4 it would end at the 5 s
    // deadline: not started.
    assert_eq!(served, vec![1000, 2000, 3000, 4000]);
    assert_eq!(
        offline,
        vec![0; 8],
        "the others get the offline comment at once"
    );
    for c in comments.iter().filter(|c| c.fallback) {
        assert_eq!(outcomes(c), vec!["queue_full"]);
        assert_eq!(c.tried[0].latency_ms, 0);
    }
    let report = &coach.report()[0];
    assert_eq!(report.breaker.as_ref().unwrap().state, "closed");
    assert_eq!(report.stats.outcomes.get("timeout"), None);
    assert_eq!((report.in_flight, report.max_concurrency), (0, Some(8)));
}

#[tokio::test(start_paused = true)]
async fn at_max_concurrency_the_model_is_skipped_not_waited_on() {
    let coach = one_at_a_time(1000, Some(1));
    let comments = twelve_at_once(&coach, 0).await;
    let (served, offline) = latencies(&comments);
    assert_eq!((served, offline), (vec![1000], vec![0; 11]));
}

/// Before the model has answered once its pace is unknown, so a burst may
/// queue up to `max_concurrency` calls, and some run out of time. The model
/// answered the calls ahead of them meanwhile: busy, not down.
#[tokio::test(start_paused = true)]
async fn a_timeout_behind_our_own_queue_is_not_the_model_being_down() {
    let coach = one_at_a_time(2000, Some(6));
    let comments = twelve_at_once(&coach, 0).await;
    let (served, offline) = latencies(&comments);
    assert_eq!(served, vec![2000, 4000]);
    assert_eq!(offline.iter().filter(|ms| **ms == 5000).count(), 4);
    assert_eq!(offline.iter().filter(|ms| **ms == 0).count(), 6);
    let queued: usize = comments
        .iter()
        .map(|c| {
            c.tried
                .iter()
                .filter(|t| t.outcome == Outcome::QueueTimeout)
                .count()
        })
        .sum();
    assert_eq!(queued, 4);
    let report = &coach.report()[0];
    assert_eq!(report.breaker.as_ref().unwrap().state, "closed");
    assert_eq!(report.last_error, None, "no failure learned");
    assert!(
        report.success_estimate > Some(0.75),
        "two successes on the prior"
    );
    assert_eq!(report.stats.outcomes.get("queue_timeout"), Some(&4));
    // Now its pace is known: the next burst is not let into a queue it
    // cannot get through.
    let comments = twelve_at_once(&coach, 100).await;
    let (served, offline) = latencies(&comments);
    assert_eq!((served, offline), (vec![2000, 4000], vec![0; 10]));
}

/// The rule above never hides an outage: a model that answers nothing while
/// calls wait for it is down.
#[tokio::test(start_paused = true)]
async fn a_model_that_answers_nothing_is_still_found_down() {
    let coach = one_at_a_time(30_000, Some(4));
    let comments = join_all((0..4).map(|i| coach.comment(input(i), visitor(i)))).await;
    assert!(comments
        .iter()
        .all(|c| outcomes(c) == vec!["timeout"] && c.latency_ms == 5000));
    let report = &coach.report()[0];
    assert_eq!(report.breaker.as_ref().unwrap().state, "open");
}

/// A busy local model gives way to another model at once.
#[tokio::test(start_paused = true)]
async fn another_model_answers_at_once_when_the_queue_is_full() {
    let fake = Fake::default();
    fake.set(
        "local",
        Behaviour {
            one_at_a_time: true,
            ..answers(3000)
        },
    );
    fake.set("hosted", answers(500));
    let registry = Registry::parse(
        "[[models]]\nalias = \"local\"\nmodel = \"org/l\"\napi = \"chat\"\n\
         base_url = \"http://127.0.0.1:8080/v1\"\nmax_concurrency = 1\n\
         [[models]]\nalias = \"hosted\"\nmodel = \"org/h\"\napi = \"chat\"\n",
    )
    .unwrap();
    let coach = Coach::new(registry, None, Arc::new(fake), Some(2));
    let busy = CoachInput {
        model: Some("local".into()),
        ..input(0)
    };
    let (held, others) = futures::join!(
        coach.comment(busy.clone(), visitor(0)),
        join_all((1..7).map(|i| coach.comment(input(i), visitor(i))))
    );
    assert_eq!((held.model.as_str(), held.latency_ms), ("local", 3000));
    for c in &others {
        assert_eq!(
            (c.model.as_str(), c.latency_ms),
            ("hosted", 500),
            "{:?}",
            c.tried
        );
        assert!(outcomes(c).iter().all(|o| o == "ok" || o == "queue_full"));
    }
    assert!(others
        .iter()
        .any(|c| outcomes(c) == vec!["queue_full", "ok"]));
    // Forced while busy: the offline comment at once, and why.
    let (_, forced) = futures::join!(
        coach.comment(busy.clone(), visitor(20)),
        coach.comment(busy.clone(), visitor(21))
    );
    assert_eq!((forced.fallback, forced.latency_ms), (true, 0));
    assert_eq!(outcomes(&forced), vec!["queue_full"]);
}
