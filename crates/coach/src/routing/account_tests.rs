//! An account stopped as a whole: a 402 (credits spent) or a 401 (the key
//! refused) from one model rests every model on the same key and host, for
//! an hour, doubling to a day, with one WARN naming the variable; a 403 is
//! that model's alone.

use std::time::Duration;

use tokio::time::Instant;

use super::{tests::accounts_router as router, Router};
use crate::test_logs::logged;
use crate::{outcome::Outcome, registry::Registry};
use vocabulary::Lang::En;

/// Each model's breaker state and seconds of rest left, at `now`.
fn states(r: &Router, registry: &Registry, now: Instant) -> Vec<(String, &'static str, u64)> {
    registry
        .models
        .iter()
        .map(|m| {
            let report = r.breaker(&m.alias).unwrap().report(now);
            let left = report.retry_in_s.unwrap_or(0.0).round() as u64;
            (m.alias.clone(), report.state, left)
        })
        .collect()
}

/// `alias` answers `outcome` at `now` (as an ordinary call or its probe).
fn answer(r: &mut Router, alias: &str, outcome: Outcome, now: Instant) {
    let ticket = r.try_acquire(alias, En, now).unwrap();
    r.record_outcome(
        alias,
        En,
        Duration::from_millis(40),
        &outcome,
        None,
        ticket,
        now,
    );
}

#[test]
fn spent_credits_rest_the_account_an_hour_doubling_with_one_warn() {
    let (mut r, registry) = router();
    let t0 = Instant::now();
    // hf2 had a call under way when hf1 met the 402.
    let in_flight = r.try_acquire("hf2", En, t0).unwrap();
    let log = logged(|| {
        answer(&mut r, "hf1", Outcome::Credits, t0);
        r.record_outcome(
            "hf2",
            En,
            Duration::from_millis(40),
            &Outcome::Credits,
            None,
            in_flight,
            t0,
        );
    });
    assert_eq!(log.matches("WARN").count(), 1, "{log}");
    assert!(
        log.contains("HF_TOKEN") && log.contains("credits spent (402)"),
        "{log}"
    );
    assert!(log.contains("its 2 model(s) rest for 60 min"), "{log}");
    let resting: Vec<_> = states(&r, &registry, t0)
        .into_iter()
        .filter(|(_, state, _)| *state != "closed")
        .collect();
    assert_eq!(
        resting,
        vec![
            ("hf1".into(), "credits", 3600),
            ("hf2".into(), "credits", 3600)
        ],
        "the models on HF_TOKEN at the router, and no other"
    );
    // Still spent an hour later: two hours, then four, up to a day.
    let t1 = t0 + Duration::from_secs(3600);
    assert!(r.try_acquire("own", En, t1).is_some());
    let log = logged(|| answer(&mut r, "hf1", Outcome::Credits, t1));
    assert_eq!(log.matches("WARN").count(), 1, "{log}");
    assert_eq!(
        states(&r, &registry, t1)[0],
        ("hf1".into(), "credits", 7200)
    );
    // A good answer after the rest starts the doubling afresh.
    let t2 = t1 + Duration::from_secs(7200);
    answer(&mut r, "hf1", Outcome::Ok, t2);
    answer(&mut r, "hf1", Outcome::Credits, t2);
    assert_eq!(
        states(&r, &registry, t2)[0],
        ("hf1".into(), "credits", 3600)
    );
}

#[test]
fn a_refused_key_stops_every_model_on_it_and_a_403_only_its_own() {
    let (mut r, registry) = router();
    let t0 = Instant::now();
    let log = logged(|| answer(&mut r, "third1", Outcome::Unauthorized, t0));
    assert_eq!(log.matches("WARN").count(), 1, "{log}");
    assert!(
        log.contains("SHARED_KEY refused (401) by api.example.com"),
        "{log}"
    );
    assert!(
        !log.contains("sk-fake"),
        "the key itself is never logged: {log}"
    );
    let stopped: Vec<_> = states(&r, &registry, t0)
        .into_iter()
        .filter(|(_, state, _)| *state == "misconfigured")
        .map(|(alias, ..)| alias)
        .collect();
    assert_eq!(
        stopped,
        vec!["third1", "third2"],
        "the same key at the same host"
    );
    // A gated model's 403 is that model's: the others on HF_TOKEN go on.
    let log = logged(|| answer(&mut r, "hf1", Outcome::Forbidden, t0));
    assert!(!log.contains("WARN"), "{log}");
    let states = states(&r, &registry, t0);
    assert_eq!(states[0], ("hf1".into(), "misconfigured", 3600));
    assert_eq!(states[1].1, "closed", "hf2");
}
