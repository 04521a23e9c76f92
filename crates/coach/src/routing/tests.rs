//! The router: the original server's numbers, the strategies' shares, reloads, and
//! one record_outcome teaching the statistics and the breaker together.

use std::time::Duration;

use rand::{rngs::StdRng, SeedableRng};
use tokio::time::Instant;

use super::{
    admission::failure,
    breaker::{Failure, Ticket},
    strategy::{pick, SeedStrategy, ThompsonStrategy},
    Finished, Router, Tickets,
};
use crate::{model::Account, outcome::Outcome, providers::ProviderError};
use vocabulary::Lang::En;

fn rng() -> StdRng {
    StdRng::seed_from_u64(7)
}

/// `aliases`, each called without a key (no account shared).
pub(super) fn keyless<'a>(aliases: &'a [&'a str]) -> impl Iterator<Item = (&'a str, Account)> + 'a {
    aliases.iter().map(|a| (*a, Account::keyless("127.0.0.1")))
}

fn router(aliases: &[&str]) -> Router {
    let mut r = Router::new(Box::new(SeedStrategy));
    r.sync(keyless(aliases));
    r
}

#[test]
fn stats_are_defined_before_the_first_call() {
    let r = router(&["a"]);
    let s = r.stats("a").unwrap();
    assert_eq!((s.total, s.errop, s.pok), (0, 0.0, 1.0));
    assert_eq!(r.probabilities(&["a"], En, &mut rng()), vec![1.0]);
}

#[test]
fn the_seeds_example_probabilities() {
    // Gemini 2/2 errors (pok 0), Phi-3 1/2 (pok 0.5), Llama 0/2 (pok 1).
    let mut r = router(&["gemini", "phi3", "llama"]);
    let slow = Duration::from_millis(1000); // neither fast nor slow: no nudge
    for _ in 0..2 {
        r.records
            .learn("gemini", En, slow, &Outcome::UpstreamError, false);
        r.records.learn("llama", En, slow, &Outcome::Ok, false);
    }
    r.records.learn("phi3", En, slow, &Outcome::Timeout, false);
    r.records.learn("phi3", En, slow, &Outcome::Ok, false);
    let p = r.probabilities(&["gemini", "phi3", "llama"], En, &mut rng());
    // 0 is floored to 0.02: 0.02/1.52, 0.5/1.52, 1/1.52.
    assert!((p[0] - 0.02 / 1.52).abs() < 1e-12);
    assert!((p[1] - 0.5 / 1.52).abs() < 1e-12);
    assert!((p[2] - 1.0 / 1.52).abs() < 1e-12);
    assert_eq!(r.stats("phi3").unwrap().share, 2.0 / 6.0);
}

#[test]
fn latency_nudges_follow_the_seed() {
    let mut r = router(&["a"]);
    r.records.learn(
        "a",
        En,
        Duration::from_millis(100),
        &Outcome::Timeout,
        false,
    );
    r.records
        .learn("a", En, Duration::from_millis(300), &Outcome::Ok, false);
    assert!((r.stats("a").unwrap().errors - 0.9).abs() < 1e-12);
    r.records
        .learn("a", En, Duration::from_millis(3000), &Outcome::Ok, false);
    assert!((r.stats("a").unwrap().errors - 1.1).abs() < 1e-12);
    let mut fresh = router(&["b"]);
    fresh
        .records
        .learn("b", En, Duration::from_millis(10), &Outcome::Ok, false);
    assert_eq!(fresh.stats("b").unwrap().errors, 0.0, "never below zero");
}

#[test]
fn pick_is_a_pure_function_of_the_random_number() {
    let w = [1.0, 0.5, 0.5];
    assert_eq!(pick(&w, 0.0), Some(0));
    assert_eq!(pick(&w, 0.49), Some(0));
    assert_eq!(pick(&w, 0.5), Some(1));
    assert_eq!(pick(&w, 0.76), Some(2));
    assert_eq!(pick(&w, 1.0), Some(2));
    assert_eq!(pick(&[0.0, 0.0], 0.7), Some(1), "all zero: uniform");
    assert_eq!(pick(&[f64::NAN, 1.0], 0.1), Some(1));
    assert_eq!(pick(&[], 0.5), None);
}

#[test]
fn order_tries_each_model_once() {
    let r = router(&["a", "b", "c"]);
    for seed in 0..20 {
        let mut order = r.order(&["a", "b", "c"], En, &mut StdRng::seed_from_u64(seed));
        order.sort();
        assert_eq!(order, vec!["a", "b", "c"]);
    }
}

/// Share of first picks per candidate over `n` orders.
fn first_pick_shares(r: &Router, candidates: &[&str], n: u32) -> Vec<f64> {
    let mut rng = StdRng::seed_from_u64(42);
    let mut counts = vec![0u32; candidates.len()];
    for _ in 0..n {
        let first = r.order(candidates, En, &mut rng).remove(0);
        counts[candidates.iter().position(|c| *c == first).unwrap()] += 1;
    }
    counts
        .iter()
        .map(|c| f64::from(*c) / f64::from(n))
        .collect()
}

#[tokio::test(start_paused = true)]
async fn thompson_prefers_the_reliable_then_the_fast_but_spreads_load() {
    let mut r = Router::new(Box::new(ThompsonStrategy));
    r.sync(keyless(&["fast", "slow", "flaky"]));
    for _ in 0..30 {
        r.records
            .learn("fast", En, Duration::from_millis(300), &Outcome::Ok, false);
        r.records
            .learn("slow", En, Duration::from_millis(1500), &Outcome::Ok, false);
        r.records.learn(
            "flaky",
            En,
            Duration::from_millis(300),
            &Outcome::UpstreamError,
            false,
        );
        r.records
            .learn("flaky", En, Duration::from_millis(300), &Outcome::Ok, false);
        r.records.learn(
            "flaky",
            En,
            Duration::from_millis(300),
            &Outcome::UpstreamError,
            false,
        );
    }
    let shares = first_pick_shares(&r, &["fast", "slow", "flaky"], 2000);
    assert!(shares[0] > shares[1] && shares[1] > shares[2], "{shares:?}");
    assert!(
        shares[1] > 0.15,
        "the slower model still speaks: {shares:?}"
    );
    let p = r.probabilities(&["fast", "slow", "flaky"], En, &mut rng());
    assert!(
        (p.iter().sum::<f64>() - 1.0).abs() < 1e-9 && p[0] > p[1] && p[1] > p[2],
        "{p:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn thompson_forgets_an_outage_the_seed_never_does() {
    let mut thompson = Router::new(Box::new(ThompsonStrategy));
    let mut seed = Router::new(Box::new(SeedStrategy));
    for r in [&mut thompson, &mut seed] {
        r.sync(keyless(&["a", "b"]));
        for _ in 0..50 {
            r.records.learn(
                "a",
                En,
                Duration::from_millis(300),
                &Outcome::ConnectionFailed,
                false,
            );
            r.records
                .learn("b", En, Duration::from_millis(300), &Outcome::Ok, false);
        }
    }
    tokio::time::advance(Duration::from_secs(30 * 60)).await; // 10 half-lives
    let shares = first_pick_shares(&thompson, &["a", "b"], 2000);
    assert!(
        shares[0] > 0.3,
        "the recovered model gets traffic again: {shares:?}"
    );
    let p = seed.probabilities(&["a", "b"], En, &mut rng());
    assert!(p[0] < 0.03, "the original server still shuts it out: {p:?}");
}

/// An answer that is always rejected is learned as a failure,
/// so that model loses the traffic. When a rejection was half a success,
/// its estimate settled near 0.5 and it kept a quarter of the first picks.
#[tokio::test(start_paused = true)]
async fn thompson_shuts_out_a_model_whose_answers_are_always_rejected() {
    let mut r = Router::new(Box::new(ThompsonStrategy));
    r.sync(keyless(&["rambler", "good"]));
    for _ in 0..30 {
        let too_long = Outcome::Rejected("too long".into());
        r.records
            .learn("rambler", En, Duration::from_millis(300), &too_long, false);
        r.records
            .learn("good", En, Duration::from_millis(600), &Outcome::Ok, false);
    }
    let estimate = r.success_estimate("rambler").unwrap();
    assert!(estimate < 0.1, "learned as failures: {estimate}");
    let shares = first_pick_shares(&r, &["rambler", "good"], 2000);
    assert!(shares[0] < 0.02, "{shares:?}");
    let s = r.stats("rambler").unwrap();
    assert_eq!((s.outcomes.get("rejected"), s.successes), (Some(&30), 0));
}

#[test]
fn reload_keeps_stats_of_models_that_stay() {
    let mut r = router(&["a", "b"]);
    r.records
        .learn("a", En, Duration::from_millis(10), &Outcome::Timeout, false);
    r.sync(keyless(&["a", "c"]));
    assert_eq!(r.stats("a").unwrap().total, 1);
    assert!(r.stats("b").is_none());
    assert_eq!(r.stats("c").unwrap().total, 0);
}

/// A 300 ms call of model `a` in English that ended as `outcome`.
fn call_of_a(outcome: &Outcome, tickets: Tickets) -> Finished<'_> {
    Finished {
        alias: "a",
        lang: En,
        latency: Duration::from_millis(300),
        outcome,
        wait: None,
        tickets,
    }
}

#[tokio::test(start_paused = true)]
async fn only_the_probe_ticket_closes_a_breaker_and_starts_the_record_afresh() {
    let mut r = Router::new(Box::new(ThompsonStrategy));
    r.sync(keyless(&["a"]));
    let state = |r: &Router| r.breaker("a").unwrap().report(Instant::now()).state;
    // A call starts while the breaker is closed, and is slow to finish.
    let early = r.try_acquire("a", En, Instant::now()).unwrap();
    assert_eq!(early.model, Ticket::Ordinary);
    for _ in 0..3 {
        let ticket = r.try_acquire("a", En, Instant::now()).unwrap();
        let failed = Outcome::UpstreamError;
        r.record_outcome(call_of_a(&failed, ticket), Instant::now());
    }
    assert_eq!(state(&r), "open");
    tokio::time::advance(Duration::from_secs(2)).await;
    let probe = r.try_acquire("a", En, Instant::now()).unwrap();
    assert_eq!(probe.model, Ticket::Probe);

    // The early call answers while another request holds the probe: the
    // breaker waits for its probe, and the record is not wiped.
    r.record_outcome(call_of_a(&Outcome::Ok, early), Instant::now());
    assert_eq!(state(&r), "half_open");
    let estimate = r.success_estimate("a").unwrap();
    assert!(
        estimate < 0.5,
        "three failures and one success, not a fresh start: {estimate}"
    );

    // The probe's answer closes it and starts the record afresh.
    r.record_outcome(call_of_a(&Outcome::Ok, probe), Instant::now());
    assert_eq!(state(&r), "closed");
    let estimate = r.success_estimate("a").unwrap();
    assert!(
        (estimate - 0.75).abs() < 1e-9,
        "prior 2:1 plus one: {estimate}"
    );
}

#[test]
fn the_breaker_reads_each_provider_error() {
    let secs = Duration::from_secs;
    let reading = |e: ProviderError| failure(&e.outcome(), e.wait());
    assert_eq!(
        reading(ProviderError::RateLimited {
            retry_after: Some(secs(30))
        }),
        Failure::Throttled(Some(secs(30)))
    );
    assert_eq!(
        reading(ProviderError::Unavailable {
            retry_after: Some(secs(577))
        }),
        Failure::Throttled(Some(secs(577)))
    );
    assert_eq!(reading(ProviderError::Credits), Failure::Credits);
    for misconfigured in [
        ProviderError::Unauthorized(401),
        ProviderError::Unauthorized(403),
        ProviderError::ModelNotSupported,
        ProviderError::Gone,
    ] {
        assert_eq!(reading(misconfigured), Failure::Misconfigured);
    }
    for transient in [
        ProviderError::BadRequest(422),
        ProviderError::Upstream(502),
        ProviderError::Timeout,
        ProviderError::Connect,
        ProviderError::BadBody("not JSON".into()),
    ] {
        assert_eq!(reading(transient), Failure::Transient);
    }
}
