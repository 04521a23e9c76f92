//! The upstream budget through the service: each client's share of the day's
//! model calls (a dropped request has spent its call), and the day's count
//! kept across a save and a restore on the same UTC day.

use super::*;
use crate::{
    budget::ClientKey,
    input::CoachInput,
    providers::fake::{answers, Fake},
    Limited,
};

fn registry() -> Registry {
    Registry::parse("[[models]]\nalias = \"m\"\nmodel = \"org/m\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\n")
        .unwrap()
}

fn input() -> CoachInput {
    CoachInput::sample()
}

fn coach(budget: UpstreamBudget) -> Coach {
    let provider = Fake::default();
    provider.set("m", answers(10));
    Coach::new(registry(), None, Arc::new(provider), Some(1)).with_budget(budget)
}

fn client(n: u8) -> ClientKey {
    ClientKey::from(std::net::IpAddr::from([198, 51, 100, n]))
}

/// The offline commentator's comment, flagged for a spent day.
fn kept_out(comment: &Comment) -> bool {
    comment.fallback
        && comment.model == OFFLINE
        && comment.limited == Some(Limited::DailyBudget)
        && comment.tried.is_empty()
}

#[tokio::test(start_paused = true)]
async fn a_client_past_its_share_gets_the_offline_commentator_while_others_get_the_model() {
    let coach = coach(UpstreamBudget::new(8, 100).with_client_share(3));
    for _ in 0..3 {
        assert_eq!(coach.comment(input(), client(1)).await.model, "m");
    }
    let over = coach.comment(input(), client(1)).await;
    assert!(kept_out(&over), "{over:?}");
    let other = coach.comment(input(), client(2)).await;
    assert_eq!((other.model.as_str(), other.limited), ("m", None));
    assert_eq!(coach.upstream_calls_today(), 4);
}

#[tokio::test(start_paused = true)]
async fn requests_dropped_while_the_model_works_still_spend_the_clients_share() {
    let provider = Fake::default();
    provider.set("m", answers(1000));
    let coach = Coach::new(registry(), None, Arc::new(provider), Some(1))
        .with_budget(UpstreamBudget::new(8, 100).with_client_share(3));
    for _ in 0..3 {
        // The visitor hangs up 100 ms into the model's 1 s answer.
        let dropped = tokio::time::timeout(
            Duration::from_millis(100),
            coach.comment(input(), client(1)),
        );
        assert!(dropped.await.is_err(), "dropped before the answer");
    }
    assert_eq!(coach.upstream_calls_today(), 3, "each call was made");
    let over = coach.comment(input(), client(1)).await;
    assert!(kept_out(&over), "{over:?}");
    let other = coach.comment(input(), client(2)).await;
    assert_eq!((other.model.as_str(), other.limited), ("m", None));
}

#[tokio::test(start_paused = true)]
async fn the_days_count_survives_a_restart_on_the_same_day_only() {
    let dir = std::env::temp_dir().join(format!("jay-budget-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("router.json");
    let first = coach(UpstreamBudget::new(8, 100));
    for _ in 0..3 {
        assert!(!first.comment(input(), client(1)).await.fallback);
    }
    assert_eq!(first.upstream_calls_today(), 3);
    first.save(&path).unwrap();

    let second = coach(UpstreamBudget::new(8, 100));
    second.restore(&path).unwrap();
    assert_eq!(second.upstream_calls_today(), 3, "the same day: counted");
    second.comment(input(), client(1)).await;
    assert_eq!(second.upstream_calls_today(), 4);

    // Saved yesterday: today starts from zero.
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let day = json["upstream_today"]["day"].as_u64().unwrap();
    json["upstream_today"]["day"] = (day - 1).into();
    std::fs::write(&path, json.to_string()).unwrap();
    let third = coach(UpstreamBudget::new(8, 100));
    third.restore(&path).unwrap();
    assert_eq!(third.upstream_calls_today(), 0, "another day: not counted");

    // An older snapshot, without the count, still loads.
    json.as_object_mut().unwrap().remove("upstream_today");
    std::fs::write(&path, json.to_string()).unwrap();
    let fourth = coach(UpstreamBudget::new(8, 100));
    assert_eq!(fourth.restore(&path).unwrap(), 1);
    assert_eq!(fourth.upstream_calls_today(), 0);
    std::fs::remove_dir_all(&dir).ok();
}
