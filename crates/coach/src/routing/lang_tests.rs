//! The learned record and the quality breaker per model and
//! language; the breaker for outages per model.

use std::time::Duration;

use rand::{rngs::StdRng, SeedableRng};
use tokio::time::Instant;

use super::{strategy::ThompsonStrategy, tests::keyless, Finished, Router, Tickets};
use crate::outcome::Outcome;
use vocabulary::{
    Lang,
    Lang::{En, Pt, Zh},
};

const MS: Duration = Duration::from_millis(300);

fn thompson(aliases: &[&str]) -> Router {
    let mut r = Router::new(Box::new(ThompsonStrategy));
    r.sync(keyless(aliases));
    r
}

/// One call to `alias` in `lang` ending in `outcome` (an ordinary one when
/// a breaker would refuse it: one that started before it opened).
fn call(r: &mut Router, alias: &str, lang: Lang, outcome: Outcome) {
    let tickets = r
        .try_acquire(alias, lang, Instant::now())
        .unwrap_or(Tickets::ORDINARY);
    r.record_outcome(
        Finished {
            alias,
            lang,
            latency: MS,
            outcome: &outcome,
            wait: None,
            tickets,
        },
        Instant::now(),
    );
}

fn rejected() -> Outcome {
    Outcome::Rejected("wrong language".into())
}

#[tokio::test(start_paused = true)]
async fn a_rejection_in_pt_leaves_the_en_record_untouched() {
    let mut r = thompson(&["m"]);
    for _ in 0..3 {
        call(&mut r, "m", En, Outcome::Ok);
    }
    let en_before = r.stats("m").unwrap().by_lang[En].clone();
    let en_estimate = r.success_estimate_in("m", En).unwrap();
    let en_breaker = r.quality_breaker("m", En).unwrap().report(Instant::now());

    call(&mut r, "m", Pt, rejected());

    let s = r.stats("m").unwrap();
    assert_eq!(s.by_lang[En], en_before, "the en record is untouched");
    assert_eq!(r.success_estimate_in("m", En), Some(en_estimate));
    assert_eq!(
        r.quality_breaker("m", En).unwrap().report(Instant::now()),
        en_breaker
    );
    let pt = &s.by_lang[Pt];
    assert_eq!((pt.calls, pt.successes, pt.rejections), (1, 0, 1));
    assert!(
        r.success_estimate_in("m", Pt).unwrap() < 0.6,
        "prior 2:1, one failure"
    );
    assert_eq!(s.by_lang[Zh].calls, 0);
    // The model's own totals still count every call.
    assert_eq!(
        (s.total, s.successes, s.outcomes.get("rejected")),
        (4, 3, Some(&1))
    );
}

#[tokio::test(start_paused = true)]
async fn rejected_answers_in_a_row_rest_the_model_in_that_language_only() {
    let mut r = thompson(&["m", "other"]);
    for _ in 0..5 {
        call(&mut r, "m", Pt, rejected());
    }
    let now = Instant::now();
    assert_eq!(
        r.quality_breaker("m", Pt).unwrap().report(now).state,
        "open"
    );
    assert_eq!(r.admissible(&["m", "other"], Pt, now), vec!["other"]);
    assert_eq!(r.admissible(&["m", "other"], En, now), vec!["m", "other"]);
    assert_eq!(
        r.breaker("m").unwrap().report(now).state,
        "closed",
        "it is up"
    );
    // /models' top-level breaker shows the longest streak of any language.
    assert_eq!(r.view("m", now).breaker.unwrap().consecutive_rejections, 5);
    // The last door in pt opens its quality breaker early.
    assert_eq!(r.last_door(&["m"], Pt), Some("m"));
    let tickets = r.try_acquire("m", Pt, Instant::now()).unwrap();
    assert!(tickets.holds_probe());
}

#[tokio::test(start_paused = true)]
async fn en_requests_still_pick_the_english_only_model_after_pt_rejections() {
    let mut r = thompson(&["en_only", "zh_only"]);
    for _ in 0..20 {
        call(&mut r, "en_only", En, Outcome::Ok);
        call(&mut r, "zh_only", En, rejected());
        call(&mut r, "en_only", Pt, rejected());
        call(&mut r, "zh_only", Zh, Outcome::Ok);
    }
    let mut rng = StdRng::seed_from_u64(9);
    let p_en = r.probabilities(&["en_only", "zh_only"], En, &mut rng);
    let p_zh = r.probabilities(&["en_only", "zh_only"], Zh, &mut rng);
    assert!(p_en[0] > 0.95, "{p_en:?}");
    // In zh, en_only is unknown (at the prior) and still explored.
    assert!(p_zh[1] > 0.6 && p_zh[0] > 0.2, "{p_zh:?}");

    // One record per model (the baseline): the two look alike everywhere.
    let mut pooled = thompson(&["en_only", "zh_only"]);
    pooled.set_per_language(false);
    for _ in 0..20 {
        call(&mut pooled, "en_only", En, Outcome::Ok);
        call(&mut pooled, "en_only", Pt, rejected());
        call(&mut pooled, "zh_only", Zh, Outcome::Ok);
        call(&mut pooled, "zh_only", En, rejected());
    }
    let p = pooled.probabilities(&["en_only", "zh_only"], En, &mut rng);
    assert!((p[0] - 0.5).abs() < 0.1, "{p:?}");
}

#[tokio::test(start_paused = true)]
async fn a_rejected_answer_to_the_models_probe_ends_the_outage() {
    let mut r = thompson(&["m"]);
    for _ in 0..3 {
        call(&mut r, "m", En, Outcome::UpstreamError);
    }
    assert_eq!(r.breaker("m").unwrap().report(Instant::now()).state, "open");
    tokio::time::advance(Duration::from_secs(2)).await;
    let tickets = r.try_acquire("m", Zh, Instant::now()).unwrap();
    assert_eq!(
        tickets,
        Tickets {
            model: super::breaker::Ticket::Probe,
            ..Tickets::ORDINARY
        }
    );
    r.record_outcome(
        Finished {
            alias: "m",
            lang: Zh,
            latency: MS,
            outcome: &rejected(),
            wait: None,
            tickets,
        },
        Instant::now(),
    );
    assert_eq!(
        r.breaker("m").unwrap().report(Instant::now()).state,
        "closed"
    );
    // Afresh in every language but for the rejection: en back at the prior.
    let en = r.success_estimate_in("m", En).unwrap();
    assert!((en - 2.0 / 3.0).abs() < 1e-9, "{en}");
    assert!(r.success_estimate_in("m", Zh).unwrap() < 0.6);
}

#[tokio::test(start_paused = true)]
async fn a_timeout_behind_our_own_queue_teaches_nothing() {
    let mut r = thompson(&["m"]);
    let before = r.success_estimate("m");
    for _ in 0..3 {
        call(&mut r, "m", En, Outcome::QueueTimeout);
    }
    let s = r.stats("m").unwrap();
    assert_eq!((s.total, s.errors, s.last_error.clone()), (3, 0.0, None));
    assert_eq!(s.outcomes.get("queue_timeout"), Some(&3));
    assert_eq!(r.success_estimate("m"), before);
    assert_eq!(
        r.breaker("m").unwrap().report(Instant::now()).state,
        "closed"
    );
    assert_eq!(
        s.latency.get(Instant::now(), super::learning::LATENCY_TAU),
        None
    );
}
