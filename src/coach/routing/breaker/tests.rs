//! The breaker's states, driven by tokio's paused clock.

use super::*;
use tokio::time::{advance, pause};

fn breaker() -> Breaker {
    Breaker::new(BreakerConfig::default())
}

#[tokio::test]
async fn opens_after_consecutive_failures_then_one_probe_decides() {
    pause();
    let mut b = breaker();
    for _ in 0..2 {
        assert!(b.acquire(Instant::now()).is_some());
        b.on_failure(Failure::Transient, Instant::now(), Ticket::Ordinary);
    }
    assert_eq!(b.report(Instant::now()).state, "closed");
    b.on_failure(Failure::Transient, Instant::now(), Ticket::Ordinary);
    assert_eq!(b.report(Instant::now()).state, "open");
    assert!(b.acquire(Instant::now()).is_none());

    advance(Duration::from_secs(2)).await;
    assert!(
        b.acquire(Instant::now()).is_some(),
        "cool-down over: one probe"
    );
    assert!(
        b.acquire(Instant::now()).is_none(),
        "only one probe at a time"
    );
    b.on_success(Ticket::Probe);
    assert_eq!(b.report(Instant::now()).state, "closed");
    assert!(b.acquire(Instant::now()).is_some());
}

#[tokio::test]
async fn cooldown_doubles_up_to_the_cap_and_resets_on_success() {
    pause();
    let mut b = breaker();
    let mut cooldowns = Vec::new();
    b.on_failure(Failure::Throttled(None), Instant::now(), Ticket::Ordinary);
    for _ in 0..9 {
        let until = b.open_until().unwrap();
        cooldowns.push(until.duration_since(Instant::now()).as_secs());
        advance(until.duration_since(Instant::now())).await;
        assert!(b.acquire(Instant::now()).is_some());
        b.on_failure(Failure::Transient, Instant::now(), Ticket::Probe); // the probe fails
    }
    assert_eq!(cooldowns, vec![2, 4, 8, 16, 30, 30, 30, 30, 30]);
    advance(Duration::from_secs(30)).await;
    assert!(b.acquire(Instant::now()).is_some());
    b.on_success(Ticket::Probe);
    b.on_failure(Failure::Throttled(None), Instant::now(), Ticket::Ordinary);
    assert_eq!(
        b.open_until()
            .unwrap()
            .duration_since(Instant::now())
            .as_secs(),
        2
    );
}

#[tokio::test]
async fn rate_limits_and_loading_open_at_once_for_the_time_given() {
    pause();
    let mut b = breaker();
    b.on_failure(
        Failure::Throttled(Some(Duration::from_secs(30))),
        Instant::now(),
        Ticket::Ordinary,
    );
    assert_eq!(b.report(Instant::now()).retry_in_s, Some(30.0));
    advance(Duration::from_secs(29)).await;
    assert!(b.acquire(Instant::now()).is_none());
    advance(Duration::from_secs(1)).await;
    assert!(b.acquire(Instant::now()).is_some());

    let mut b = breaker();
    let loading = Failure::Throttled(Some(Duration::from_secs_f64(577.37)));
    b.on_failure(loading, Instant::now(), Ticket::Ordinary);
    let retry = b.report(Instant::now()).retry_in_s.unwrap();
    assert!(
        (retry - 577.37).abs() < 1e-6,
        "the upstream's estimate is honoured: {retry}"
    );
}

#[tokio::test]
async fn misconfiguration_is_not_retried_by_time() {
    pause();
    let mut b = breaker();
    b.on_failure(Failure::Misconfigured, Instant::now(), Ticket::Ordinary);
    advance(Duration::from_secs(86_400)).await;
    assert!(b.acquire(Instant::now()).is_none());
    b.force_probe();
    assert!(b.acquire(Instant::now()).is_none());
    assert_eq!(b.report(Instant::now()).state, "misconfigured");
}

#[tokio::test]
async fn a_forced_probe_opens_the_last_door() {
    pause();
    let mut b = breaker();
    b.on_failure(
        Failure::Throttled(Some(Duration::from_secs(60))),
        Instant::now(),
        Ticket::Ordinary,
    );
    b.force_probe();
    assert_eq!(b.report(Instant::now()).state, "half_open");
    assert!(b.acquire(Instant::now()).is_some());
    assert!(
        b.acquire(Instant::now()).is_none(),
        "still one probe at a time"
    );
    b.on_failure(Failure::Transient, Instant::now(), Ticket::Probe);
    assert_eq!(b.report(Instant::now()).state, "open");
}

#[tokio::test]
async fn only_the_probe_decides_a_half_open_breaker() {
    pause();
    let mut b = breaker();
    b.on_failure(Failure::Throttled(None), Instant::now(), Ticket::Ordinary);
    advance(Duration::from_secs(2)).await;
    assert_eq!(b.acquire(Instant::now()), Some(Ticket::Probe));
    // A call that started before the breaker opened answers meanwhile.
    b.on_success(Ticket::Ordinary);
    assert_eq!(b.report(Instant::now()).state, "half_open");
    b.on_failure(Failure::Transient, Instant::now(), Ticket::Ordinary);
    assert_eq!(b.report(Instant::now()).state, "half_open");
    assert!(b.is_probing(), "the probe is still the one under way");
    b.on_success(Ticket::Probe);
    assert_eq!(b.report(Instant::now()).state, "closed");
    // A misconfiguration stops the model whoever reports it.
    b.on_failure(Failure::Throttled(None), Instant::now(), Ticket::Ordinary);
    b.on_failure(Failure::Misconfigured, Instant::now(), Ticket::Ordinary);
    assert_eq!(b.report(Instant::now()).state, "misconfigured");
}

#[tokio::test]
async fn answers_rejected_in_a_row_open_it_for_longer_than_an_outage() {
    pause();
    let mut b = breaker();
    for _ in 0..4 {
        b.on_rejected(Ticket::Ordinary, Instant::now());
    }
    b.on_success(Ticket::Ordinary);
    b.on_failure(Failure::Transient, Instant::now(), Ticket::Ordinary);
    for _ in 0..4 {
        b.on_rejected(Ticket::Ordinary, Instant::now());
    }
    assert_eq!(
        b.report(Instant::now()).state,
        "closed",
        "a good answer starts the count again; a failure is not a rejection"
    );
    assert_eq!(b.report(Instant::now()).consecutive_rejections, 4);
    b.on_rejected(Ticket::Ordinary, Instant::now());
    let open_for = |b: &Breaker| b.open_until().unwrap().duration_since(Instant::now());
    assert_eq!(open_for(&b), Duration::from_secs(30));
    // Its probe answers badly again: twice as long, up to 10 minutes.
    let mut cooldowns = Vec::new();
    for _ in 0..6 {
        advance(open_for(&b)).await;
        assert_eq!(b.acquire(Instant::now()), Some(Ticket::Probe));
        b.on_rejected(Ticket::Probe, Instant::now());
        cooldowns.push(open_for(&b).as_secs());
    }
    assert_eq!(cooldowns, vec![60, 120, 240, 480, 600, 600]);
    advance(open_for(&b)).await;
    assert_eq!(b.acquire(Instant::now()), Some(Ticket::Probe));
    b.on_success(Ticket::Probe);
    assert_eq!(
        (
            b.report(Instant::now()).state,
            b.report(Instant::now()).consecutive_rejections
        ),
        ("closed", 0)
    );
}
