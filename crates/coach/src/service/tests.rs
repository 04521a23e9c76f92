//! The service end to end with a fake provider: failover, deadlines, limits,
//! reloads, saves and the report.

use super::*;
use crate::routing::strategy::Strategy;
use crate::{
    budget::ClientKey,
    input::CoachInput,
    providers::fake::{answers, fails, Behaviour, Fake},
    routing::stats::ModelStats,
    Outcome,
};

fn registry(deadline_ms: u64, aliases: &[&str]) -> Registry {
    let models: String = aliases
        .iter()
        .map(|a| format!("[[models]]\nalias = \"{a}\"\nmodel = \"org/{a}\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\ntimeout_ms = 5000\n"))
        .collect();
    Registry::parse(&format!("deadline_ms = {deadline_ms}\n{models}")).unwrap()
}

fn input() -> CoachInput {
    CoachInput::sample()
}

#[tokio::test(start_paused = true)]
async fn the_deadline_bounds_the_whole_request_then_offline_answers() {
    let provider = Fake::default();
    let hang = Behaviour {
        delay: Duration::from_secs(30),
        ..fails()
    };
    provider.set("a", hang);
    provider.set("b", hang);
    let coach = Coach::new(
        registry(8000, &["a", "b"]),
        None,
        Arc::new(provider),
        Some(1),
    );
    let comment = coach.comment(input(), ClientKey::default()).await;
    // First model: its own 5 s timeout; second: the 3 s left of the 8 s deadline.
    assert_eq!(comment.latency_ms, 8000);
    assert_eq!(
        comment
            .tried
            .iter()
            .map(|t| t.latency_ms)
            .collect::<Vec<_>>(),
        vec![5000, 3000]
    );
    assert!(comment.tried.iter().all(|t| t.outcome == Outcome::Timeout));
    assert!(comment.fallback);
}

#[tokio::test(start_paused = true)]
async fn slow_and_fast_answers_nudge_the_stats_as_the_seed_did() {
    let provider = Fake::default();
    provider.set("slow", answers(3000));
    let coach = Coach::new(registry(8000, &["slow"]), None, Arc::new(provider), Some(1));
    let comment = coach.comment(input(), ClientKey::default()).await;
    assert_eq!(
        (comment.comment.as_str(), comment.latency_ms),
        ("Nice one.", 3000)
    );
    let report = coach.report();
    assert!(
        (report[0].stats.errors - 0.2).abs() < 1e-12,
        "slower than 2.5 s: +0.2"
    );
    assert_eq!(report[0].mean_latency_ms, Some(3000.0));
}

#[tokio::test]
async fn reload_adds_and_removes_models_and_keeps_stats_of_those_that_stay() {
    let dir = std::env::temp_dir().join(format!("jay-reload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("models.toml");
    let write = |aliases: &[&str]| {
        let text: String = aliases
            .iter()
            .map(|a| format!("[[models]]\nalias = \"{a}\"\nmodel = \"org/{a}\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\n"))
            .collect();
        std::fs::write(&path, text).unwrap();
    };
    write(&["keep", "drop"]);
    let provider = Fake::default();
    provider.set("keep", fails());
    provider.set("drop", fails());
    let coach = Coach::new(
        Registry::load(&path).unwrap(),
        Some(path.clone()),
        Arc::new(provider),
        Some(3),
    );
    coach.comment(input(), ClientKey::default()).await; // both fail once

    write(&["keep", "new"]);
    assert_eq!(coach.reload().await.unwrap(), 2);
    let report = coach.report();
    let aliases: Vec<&str> = report.iter().map(|m| m.alias.as_str()).collect();
    assert_eq!(aliases, vec!["keep", "new"]);
    assert_eq!((report[0].stats.total, report[1].stats.total), (1, 0));

    std::fs::write(&path, "not = [valid").unwrap();
    assert!(coach.reload().await.is_err());
    assert_eq!(coach.report().len(), 2, "a bad file changes nothing");
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn what_was_learned_survives_a_save_and_a_restore() {
    let dir = std::env::temp_dir().join(format!("jay-save-{}", std::process::id()));
    let path = dir.join("router.json");
    let provider = Arc::new(Fake::default());
    provider.set("a", fails());
    provider.set("b", answers(50));
    let registry = || registry(8000, &["a", "b"]);
    let first = Coach::new(registry(), None, provider.clone(), Some(1));
    for _ in 0..50 {
        first.comment(input(), ClientKey::default()).await;
        if first.report()[0].breaker.as_ref().unwrap().state == "open" {
            break;
        }
    }
    let before = first.report();
    assert_eq!(before[0].breaker.as_ref().unwrap().state, "open");
    first.save(&path).unwrap();

    let second = Coach::new(registry(), None, provider, Some(2));
    assert_eq!(second.restore(&path).unwrap(), 2);
    let after = second.report();
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(
            (a.stats.total, a.stats.successes),
            (b.stats.total, b.stats.successes)
        );
        assert_eq!(a.stats.outcomes, b.stats.outcomes);
        assert_eq!(a.p95_ms, b.p95_ms);
        let (eb, ea) = (b.success_estimate.unwrap(), a.success_estimate.unwrap());
        assert!((eb - ea).abs() < 0.01, "{eb} vs {ea}");
    }
    assert_eq!(
        after[0].breaker.as_ref().unwrap().state,
        "open",
        "still cooling down"
    );

    std::fs::write(&path, "{\"version\": 1, \"trunc").unwrap();
    assert!(second.restore(&path).is_err());
    assert_eq!(
        second.report()[1].stats.total,
        after[1].stats.total,
        "a bad file changes nothing"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn an_older_capture_never_overwrites_a_newer_snapshot() {
    let dir = std::env::temp_dir().join(format!("jay-capture-{}", std::process::id()));
    let path = dir.join("router.json");
    let provider = Fake::default();
    provider.set("a", answers(1));
    let coach = Coach::new(registry(8000, &["a"]), None, Arc::new(provider), Some(1));
    coach.comment(input(), ClientKey::default()).await;
    // A periodic save captures, then is slow to write...
    let periodic = coach.capture();
    for _ in 0..3 {
        coach.comment(input(), ClientKey::default()).await;
    }
    // ...while the final save at shutdown captures and writes.
    assert!(coach.capture().write(&path).unwrap());
    assert!(
        !periodic.write(&path).unwrap(),
        "the older capture is skipped"
    );
    let saved = Snapshot::read(&path).unwrap().unwrap();
    assert_eq!(saved.models["a"].total, 4, "the final state is on disk");
    std::fs::remove_dir_all(&dir).ok();
}

/// Stalls inside `weight` on the thread named `report` until released.
struct Stall(Arc<(Mutex<(bool, bool)>, std::sync::Condvar)>);

impl Stall {
    /// Blocks until `pick` holds, then applies `then`.
    fn wait(&self, pick: fn(&(bool, bool)) -> bool) {
        let (lock, signal) = &*self.0;
        let mut state = lock.lock().unwrap_or_else(PoisonError::into_inner);
        while !pick(&state) {
            state = signal.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
    }

    fn set(&self, update: fn(&mut (bool, bool))) {
        let (lock, signal) = &*self.0;
        update(&mut lock.lock().unwrap_or_else(PoisonError::into_inner));
        signal.notify_all();
    }
}

impl Drop for Stall {
    fn drop(&mut self) {
        self.set(|s| s.1 = true);
    }
}

impl Strategy for Stall {
    fn name(&self) -> &'static str {
        "stall"
    }

    fn weight(
        &self,
        _: &str,
        _: &ModelStats,
        _: vocabulary::Lang,
        _: Instant,
        _: Duration,
        _: &mut dyn rand::RngCore,
    ) -> f64 {
        if std::thread::current().name() == Some("report") {
            self.set(|s| s.0 = true);
            self.wait(|s| s.1);
        }
        1.0
    }

    fn is_sampled(&self) -> bool {
        true
    }
}

#[test]
fn a_report_being_made_does_not_hold_up_routing() {
    let provider = Fake::default();
    provider.set("a", answers(10));
    let coach = Arc::new(Coach::new(
        registry(8000, &["a"]),
        None,
        Arc::new(provider),
        Some(1),
    ));
    let gate = Arc::new((Mutex::new((false, false)), std::sync::Condvar::new()));
    coach.set_strategy(Box::new(Stall(gate.clone())));
    let control = Stall(gate);
    let reporter = {
        let coach = coach.clone();
        std::thread::Builder::new()
            .name("report".into())
            .spawn(move || coach.report().len())
            .unwrap()
    };
    // The report is now drawing its probabilities (and stays there).
    control.wait(|s| s.0);

    let (done, answered) = std::sync::mpsc::channel();
    let router_user = coach.clone();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .start_paused(true)
            .build()
            .unwrap();
        let _ = done.send(runtime.block_on(router_user.comment(input(), ClientKey::default())));
    });
    // A deadlock detector, not a speed limit: on a router locked for the
    // whole report, the request would wait for ever.
    let comment = answered
        .recv_timeout(Duration::from_secs(120))
        .expect("a request was routed while the report was being made");
    assert_eq!((comment.model.as_str(), comment.fallback), ("a", false));
    drop(control); // releases the report
    assert_eq!(reporter.join().unwrap(), 1);
}

#[test]
fn a_reload_reads_the_file_off_the_runtime_threads() {
    let dir = std::env::temp_dir().join(format!("jay-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("models.toml");
    let _ = std::fs::remove_file(&path);
    // A FIFO: reading it blocks until someone writes (a slow disk, at worst).
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let coach = Arc::new(Coach::new(
        registry(8000, &["a"]),
        Some(path.clone()),
        Arc::new(Fake::default()),
        Some(1),
    ));
    let (done, reloaded) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        // One runtime thread: a read on it would starve the writer task.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let result = runtime.block_on(async move {
            let text = "[[models]]\nalias = \"b\"\nmodel = \"org/b\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\n";
            let writer = tokio::spawn(tokio::fs::write(path, text));
            let count = coach.reload().await;
            let _ = writer.await;
            count.map(|n| (n, coach.report()[0].alias.clone()))
        });
        let _ = done.send(result.map_err(|e| e.to_string()));
    });
    // A deadlock detector, not a speed limit.
    let result = reloaded
        .recv_timeout(Duration::from_secs(120))
        .expect("the reload blocked the runtime thread");
    assert_eq!(result, Ok((1, "b".to_string())));
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reloads_while_requests_are_under_way_keep_registry_and_router_together() {
    let dir = std::env::temp_dir().join(format!("jay-reload-live-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("models.toml");
    let file = |aliases: &[&str]| -> String {
        aliases
            .iter()
            .map(|a| format!("[[models]]\nalias = \"{a}\"\nmodel = \"org/{a}\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\n"))
            .collect()
    };
    let (first, second) = (file(&["a", "b"]), file(&["b", "c"]));
    std::fs::write(&path, &first).unwrap();
    let provider = Fake::default();
    for alias in ["a", "b", "c"] {
        provider.set(alias, answers(20));
    }
    let coach = Arc::new(
        Coach::new(
            Registry::load(&path).unwrap(),
            Some(path.clone()),
            Arc::new(provider),
            Some(4),
        )
        .with_budget(UpstreamBudget::new(1000, 100_000)),
    );
    let mut requests = tokio::task::JoinSet::new();
    for round in 0..10 {
        for _ in 0..8 {
            let coach = coach.clone();
            requests.spawn(async move { coach.comment(input(), ClientKey::default()).await });
        }
        let next = if round % 2 == 0 { &second } else { &first };
        std::fs::write(&path, next).unwrap();
        assert_eq!(coach.reload().await.unwrap(), 2);
    }
    let mut answered = 0;
    while let Some(comment) = requests.join_next().await {
        let comment = comment.expect("no request panicked");
        assert!(
            ["a", "b", "c"].contains(&comment.model.as_str()),
            "{comment:?}"
        );
        answered += 1;
    }
    assert_eq!(answered, 80);
    // The last reload put `first` back: the report, the registry and the
    // router agree, and a late answer from a removed model left no trace.
    let report = coach.report();
    let aliases: Vec<&str> = report.iter().map(|m| m.alias.as_str()).collect();
    assert_eq!(aliases, vec!["a", "b"]);
    let routing = coach.router();
    assert!(routing.stats("c").is_none() && routing.breaker("c").is_none());
    assert!(routing.stats("a").is_some() && routing.stats("b").is_some());
    drop(routing);
    std::fs::remove_dir_all(&dir).ok();
}
