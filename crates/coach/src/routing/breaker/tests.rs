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

/// A gated model (403) is not kept out until a restart: it is tried again.
#[tokio::test]
async fn a_misconfigured_model_is_retried_after_an_hour_doubling_to_a_day() {
    pause();
    let mut b = breaker();
    let hours = |b: &Breaker| b.report(Instant::now()).retry_in_s.map(|s| s / 3600.0);
    b.on_failure(Failure::Misconfigured, Instant::now(), Ticket::Ordinary);
    // Other calls that meet the same 403 do not lengthen the wait.
    b.on_failure(Failure::Misconfigured, Instant::now(), Ticket::Ordinary);
    let mut cooldowns = Vec::new();
    for _ in 0..7 {
        assert_eq!(b.report(Instant::now()).state, "misconfigured");
        cooldowns.push(hours(&b).unwrap());
        let left = Duration::from_secs_f64(b.report(Instant::now()).retry_in_s.unwrap());
        advance(left - Duration::from_secs(1)).await;
        assert!(!b.is_available(Instant::now()));
        assert!(b.acquire(Instant::now()).is_none(), "not before its time");
        b.force_probe();
        assert!(b.acquire(Instant::now()).is_none(), "not by the last door");
        advance(Duration::from_secs(1)).await;
        assert!(b.is_available(Instant::now()));
        assert_eq!(b.acquire(Instant::now()), Some(Ticket::Probe));
        assert!(b.acquire(Instant::now()).is_none(), "one probe at a time");
        b.on_failure(Failure::Misconfigured, Instant::now(), Ticket::Probe);
    }
    assert_eq!(cooldowns, vec![1.0, 2.0, 4.0, 8.0, 16.0, 24.0, 24.0]);

    // The licence was accepted: the next probe's answer closes it, and a
    // later misconfiguration starts again at an hour.
    advance(Duration::from_secs(24 * 3600)).await;
    assert_eq!(b.acquire(Instant::now()), Some(Ticket::Probe));
    b.on_success(Ticket::Probe);
    assert_eq!(b.report(Instant::now()).state, "closed");
    b.on_failure(Failure::Misconfigured, Instant::now(), Ticket::Ordinary);
    assert_eq!(hours(&b), Some(1.0));
}

#[tokio::test]
async fn a_misconfigured_probe_that_meets_an_outage_keeps_its_count() {
    pause();
    let mut b = breaker();
    b.on_failure(Failure::Misconfigured, Instant::now(), Ticket::Ordinary);
    advance(Duration::from_secs(3600)).await;
    assert_eq!(b.acquire(Instant::now()), Some(Ticket::Probe));
    // The host is down this time: an ordinary short cool-down.
    b.on_failure(Failure::Transient, Instant::now(), Ticket::Probe);
    assert_eq!(b.report(Instant::now()).state, "open");
    advance(b.open_until().unwrap().duration_since(Instant::now())).await;
    assert_eq!(b.acquire(Instant::now()), Some(Ticket::Probe));
    // Still gated: twice the first wait, not a fresh hour.
    b.on_failure(Failure::Misconfigured, Instant::now(), Ticket::Probe);
    assert_eq!(b.report(Instant::now()).retry_in_s, Some(7200.0));
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

/// The breaker for outages hears that an answer came, whatever
/// the checks then made of it: the model is up.
#[tokio::test]
async fn an_answer_of_any_quality_tells_the_outage_breaker_the_model_is_up() {
    pause();
    let mut b = breaker();
    for _ in 0..2 {
        b.on_failure(Failure::Transient, Instant::now(), Ticket::Ordinary);
    }
    b.on_answered(Ticket::Ordinary);
    assert_eq!(b.report(Instant::now()).consecutive_failures, 0);
    for _ in 0..10 {
        b.on_answered(Ticket::Ordinary);
    }
    assert_eq!(
        b.report(Instant::now()).state,
        "closed",
        "never opens on answers"
    );
    for _ in 0..3 {
        b.on_failure(Failure::Transient, Instant::now(), Ticket::Ordinary);
    }
    advance(Duration::from_secs(2)).await;
    assert_eq!(b.acquire(Instant::now()), Some(Ticket::Probe));
    b.on_answered(Ticket::Ordinary);
    assert!(b.is_probing(), "only the probe decides");
    b.on_answered(Ticket::Probe);
    assert_eq!(b.report(Instant::now()).state, "closed");
}

/// A restart, like a reload, ends a misconfigured model's rest (on a Space,
/// changing a secret restarts it); files written by older versions still load.
#[tokio::test]
async fn a_resting_model_restarts_closed_and_older_files_still_load() {
    pause();
    let mut b = breaker();
    b.on_failure(Failure::Misconfigured, Instant::now(), Ticket::Ordinary);
    let file = serde_json::to_string(&b.save(Instant::now())).unwrap();
    let saved: SavedBreaker = serde_json::from_str(&file).unwrap();
    let config = BreakerConfig::default();
    let mut b = Breaker::restore(config, &saved, Duration::from_secs(5), Instant::now());
    assert_eq!(b.report(Instant::now()).state, "closed");
    b.on_failure(Failure::Misconfigured, Instant::now(), Ticket::Ordinary);
    assert_eq!(b.report(Instant::now()).retry_in_s, Some(3600.0));

    let older = r#"{"open_for_s": 12.5, "consecutive_failures": 0, "opened_in_a_row": 2}"#;
    let saved: SavedBreaker = serde_json::from_str(older).unwrap();
    let b = Breaker::restore(config, &saved, Duration::from_secs(2), Instant::now());
    let report = b.report(Instant::now());
    assert_eq!((report.state, report.retry_in_s), ("open", Some(10.5)));
}
