//! Hedging, the last door and forced models, with a fake provider and tokio's
//! paused clock.

use std::{sync::Arc, time::Duration};

use super::*;
use crate::{
    budget::UpstreamBudget,
    providers::fake::{answers, fails, Behaviour, Fake},
    registry::Registry,
    Comment,
};

fn coach(top: &str, fake: &Arc<Fake>) -> Coach {
    let models: String = ["a", "b"]
        .iter()
        .map(|a| format!("[[models]]\nalias = \"{a}\"\nmodel = \"org/{a}\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\n"))
        .collect();
    let registry = Registry::parse(&format!("strategy = \"thompson\"\n{top}\n{models}")).unwrap();
    Coach::new(registry, None, fake.clone(), Some(5)).with_budget(roomy())
}

use super::test_support::{input, roomy, visitor};

fn outcomes(c: &Comment) -> Vec<String> {
    c.tried.iter().map(|t| t.outcome.to_string()).collect()
}

/// 80 requests at a steady 100 ms: both models learn their p95 (about 40
/// answers each), and the hedge budget saves up 8 hedges.
async fn warm_up(coach: &Coach, fake: &Fake) {
    fake.set("a", answers(100));
    fake.set("b", answers(100));
    for i in 0..80 {
        let c = coach.comment(input(i), visitor(i)).await;
        assert_eq!(outcomes(&c), vec!["ok"], "no hedge below the p95");
    }
}

#[tokio::test(start_paused = true)]
async fn a_call_slower_than_its_p95_is_hedged_and_the_first_good_answer_wins() {
    let fake = Arc::new(Fake::default());
    let coach = coach("hedge = true\nhedge_ratio = 0.1", &fake);
    warm_up(&coach, &fake).await;
    // Now whichever model is asked first takes 3 s; a second one, 200 ms.
    let slow_first = Behaviour {
        alone: Some(Duration::from_secs(3)),
        ..answers(200)
    };
    fake.set("a", slow_first);
    fake.set("b", slow_first);

    let c = coach.comment(input(100), visitor(100)).await;
    assert!(!c.fallback);
    assert_eq!(
        c.latency_ms, 300,
        "hedged at the 100 ms p95, answered 200 ms later"
    );
    assert_eq!(outcomes(&c), vec!["ok", "cancelled"]);
    assert_ne!(c.tried[0].model, c.tried[1].model);
    assert_eq!(c.model, c.tried[0].model);

    // Every one of the next 30 requests wants a hedge, but the budget holds
    // 8 saved + 0.1 per request: at most 11 in all. (Without it, all 31
    // would be hedged; after its last hedge, a model's slow answers soon
    // raise its p95 to 3 s, so fewer than 11 is possible.)
    let mut hedged = 1;
    for i in 0..30 {
        let c = coach.comment(input(200 + i), visitor(200 + i)).await;
        if c.tried.len() == 2 {
            hedged += 1;
            // The hedge's 200 ms answers enter its window: a p95 of 100 or 200.
            assert!([300, 400].contains(&c.latency_ms), "{}", c.latency_ms);
            assert_eq!(outcomes(&c), vec!["ok", "cancelled"]);
        } else {
            assert_eq!(c.latency_ms, 3000, "not hedged: the slow answer");
        }
    }
    assert!(
        (8..=11).contains(&hedged),
        "{hedged} hedges for 31 requests"
    );
}

#[tokio::test(start_paused = true)]
async fn a_hedge_the_budget_refuses_leaves_failover_intact() {
    let fake = Arc::new(Fake::default());
    // One model call at a time: every hedge is refused as "busy".
    let coach = coach("hedge = true", &fake).with_budget(UpstreamBudget::new(1, 10_000));
    warm_up(&coach, &fake).await;
    fake.set(
        "a",
        Behaviour {
            delay: Duration::from_secs(3),
            ..fails()
        },
    );
    fake.set("b", answers(100));
    let mut slow = 0;
    for i in 0..20 {
        let c = coach.comment(input(100 + i), visitor(100 + i)).await;
        assert!(!c.fallback && c.limited.is_none(), "{:?}", c.tried);
        assert_eq!(c.model, "b");
        slow += usize::from(c.tried.len() == 2);
    }
    assert!(
        slow > 0,
        "a was asked first at least once, then b took over"
    );
}

#[tokio::test(start_paused = true)]
async fn no_hedge_when_it_is_switched_off() {
    let fake = Arc::new(Fake::default());
    let coach = coach("hedge = false", &fake);
    warm_up(&coach, &fake).await;
    fake.set(
        "a",
        Behaviour {
            alone: Some(Duration::from_secs(3)),
            ..answers(200)
        },
    );
    fake.set(
        "b",
        Behaviour {
            alone: Some(Duration::from_secs(3)),
            ..answers(200)
        },
    );
    let c = coach.comment(input(100), visitor(100)).await;
    assert_eq!((c.latency_ms, outcomes(&c)), (3000, vec!["ok".to_string()]));
}

#[tokio::test(start_paused = true)]
async fn when_every_admissible_model_failed_the_open_one_gets_an_early_probe() {
    let fake = Arc::new(Fake::default());
    let coach = coach("", &fake);
    fake.set("a", fails());
    fake.set("b", answers(100));
    // Until a's breaker opens (3 failures in a row).
    for i in 0..50 {
        coach.comment(input(i), visitor(i)).await;
        if coach
            .router()
            .breaker("a")
            .is_some_and(|b| !b.is_available(Instant::now()))
        {
            break;
        }
    }
    assert_eq!(coach.report()[0].breaker.as_ref().unwrap().state, "open");

    // Now a is back and b fails; a's cool-down has not ended.
    fake.set("a", answers(100));
    fake.set("b", fails());
    let c = coach.comment(input(99), visitor(99)).await;
    assert!(!c.fallback, "{:?}", c.tried);
    assert_eq!(outcomes(&c), vec!["upstream_error", "ok"]);
    assert_eq!((c.tried[0].model.as_str(), c.model.as_str()), ("b", "a"));
    assert_eq!(coach.report()[0].breaker.as_ref().unwrap().state, "closed");
}

#[tokio::test(start_paused = true)]
async fn an_abandoned_probe_is_handed_back() {
    let fake = Arc::new(Fake::default());
    let coach = coach("", &fake);
    fake.set("a", fails());
    fake.set("b", fails());
    // Both breakers open: every request is the last door's single probe.
    for i in 0..6 {
        coach.comment(input(i), visitor(i)).await;
    }
    assert!(["a", "b"].iter().all(|m| !coach
        .router()
        .breaker(m)
        .unwrap()
        .is_available(Instant::now())));
    fake.set("a", answers(30_000));
    fake.set("b", answers(30_000));
    // The visitor leaves after 1 s, while the probe is under way.
    let gone =
        tokio::time::timeout(Duration::from_secs(1), coach.comment(input(7), visitor(7))).await;
    assert!(gone.is_err());
    let probing = ["a", "b"]
        .iter()
        .filter(|m| coach.router().breaker(m).unwrap().is_probing())
        .count();
    assert_eq!(
        probing, 0,
        "no breaker waits on a probe that will never report"
    );
}

/// A client that forces a model (`?model=`) must not be able to farm its
/// record: the rejections of a forced call leave the learned record and the
/// quality breaker as they were, while the visitor still gets the offline
/// comment and `tried` still names the rejection. Unforced, the same answer
/// counts against the model.
#[tokio::test(start_paused = true)]
async fn a_forced_models_rejections_do_not_train_the_router() {
    let fake = Arc::new(Fake::default());
    let empty = Behaviour {
        answer: Some("|fim|"),
        ..answers(10)
    };
    fake.set("a", empty);
    fake.set("b", fails());
    let coach = coach("", &fake);
    let a = |coach: &Coach| {
        let report = coach.report();
        let a = report.into_iter().find(|m| m.alias == "a").unwrap();
        (a.stats.total, a.breaker.unwrap().state)
    };
    for i in 0..8 {
        let mut forced = input(i);
        forced.model = Some("a".into());
        let comment = coach.comment(forced, visitor(300)).await;
        assert!(comment.fallback);
        assert_eq!(outcomes(&comment), ["rejected: empty"]);
    }
    assert_eq!(
        a(&coach),
        (0, "closed"),
        "8 forced rejections trained nothing"
    );
    let comment = coach.comment(input(9), visitor(9)).await;
    assert!(outcomes(&comment).contains(&"rejected: empty".to_string()));
    assert_eq!(a(&coach).0, 1, "an unforced rejection still counts");
}
