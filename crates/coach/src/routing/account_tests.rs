//! An account stopped as a whole: a 402 (credits spent) or a 401 (the key
//! refused) from one model rests every model on the same key and host, for
//! an hour, doubling to a day, with one WARN naming the variable; a 403 is
//! that model's alone.

use std::time::Duration;

use tokio::time::Instant;

use super::{strategy::ThompsonStrategy, Finished, Router};
use crate::test_logs::logged;
use crate::{outcome::Outcome, registry::Registry};
use vocabulary::Lang::En;

/// A registry of models on several accounts: two on `HF_TOKEN`, one on its
/// own key at the same host, a local one with no key, and `SHARED_KEY` at
/// two hosts.
const ACCOUNTS: &str = r#"
[[models]]
alias = "hf1"
model = "org/one"
api = "chat"
[[models]]
alias = "hf2"
model = "org/two"
api = "chat"
base_url = "https://router.huggingface.co/v1"
[[models]]
alias = "own"
model = "org/own"
api = "chat"
token_env = "OWN_KEY"
[[models]]
alias = "local"
model = "llama3"
api = "chat"
base_url = "http://127.0.0.1:11434/v1"
[[models]]
alias = "third1"
model = "m1"
api = "chat"
base_url = "https://api.example.com/v1"
token_env = "SHARED_KEY"
[[models]]
alias = "third2"
model = "m2"
api = "chat"
base_url = "https://api.example.com/v2"
token_env = "SHARED_KEY"
[[models]]
alias = "elsewhere"
model = "m3"
api = "chat"
base_url = "https://api.other.example/v1"
token_env = "SHARED_KEY"
"#;

/// A router over [`ACCOUNTS`] (each `token_env` set), and the registry.
fn router() -> (Router, Registry) {
    let env = |name: &str| Some(format!("sk-fake-{name}"));
    let registry = Registry::parse_with_env(ACCOUNTS, env).unwrap();
    let mut r = Router::new(Box::new(ThompsonStrategy));
    r.sync(
        registry
            .models
            .iter()
            .map(|m| (m.alias.as_str(), m.account())),
    );
    (r, registry)
}

/// The models whose breakers are open after `spender` answers 402, and
/// whether that one record changed the router's generation.
fn stopped_by_a_402_from(spender: &str) -> (Vec<String>, bool) {
    let (mut r, registry) = router();
    let ticket = r.try_acquire(spender, En, Instant::now()).unwrap();
    let before = r.generation();
    let credits = Outcome::Credits;
    let ms = Duration::from_millis(50);
    r.record_outcome(
        Finished {
            alias: spender,
            lang: En,
            latency: ms,
            outcome: &credits,
            wait: None,
            tickets: ticket,
        },
        Instant::now(),
    );
    assert_eq!(r.stats(spender).unwrap().outcomes.get("credits"), Some(&1));
    let stopped = registry
        .models
        .iter()
        .filter(|m| !r.breaker(&m.alias).unwrap().is_available(Instant::now()))
        .map(|m| m.alias.clone())
        .collect();
    (stopped, r.generation() != before)
}

/// A 402 stops the models of that key only.
#[tokio::test(start_paused = true)]
async fn spent_credits_open_the_breakers_of_that_account_in_one_record() {
    let (stopped, changed) = stopped_by_a_402_from("hf1");
    assert_eq!(stopped, vec!["hf1", "hf2"], "the models on HF_TOKEN");
    assert!(changed);
    assert_eq!(stopped_by_a_402_from("third2").0, vec!["third1", "third2"]);
}

#[tokio::test(start_paused = true)]
async fn a_model_on_its_own_key_or_on_none_spends_only_its_own_credits() {
    assert_eq!(stopped_by_a_402_from("own").0, vec!["own"]);
    assert_eq!(stopped_by_a_402_from("local").0, vec!["local"]);
    assert_eq!(stopped_by_a_402_from("elsewhere").0, vec!["elsewhere"]);
}

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
        Finished {
            alias,
            lang: En,
            latency: Duration::from_millis(40),
            outcome: &outcome,
            wait: None,
            tickets: ticket,
        },
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
            Finished {
                alias: "hf2",
                lang: En,
                latency: Duration::from_millis(40),
                outcome: &Outcome::Credits,
                wait: None,
                tickets: in_flight,
            },
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
