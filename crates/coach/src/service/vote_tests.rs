//! Votes move the router: two models whose answers pass every check, one
//! of which the visitors find unhelpful far more often than the other.

use std::{sync::Arc, time::Duration};

use rand::{rngs::StdRng, Rng, SeedableRng};

use super::*;
use crate::{
    feedback::{FeedbackKey, Signer, Vote},
    providers::fake::{answers, Fake},
};

use super::test_support::{input, roomy, visitor};

fn coach(seed: u64) -> Coach {
    let fake = Fake::default();
    fake.set("a", answers(100));
    fake.set("b", answers(100));
    let models: String = ["a", "b"]
        .iter()
        .map(|a| format!("[[models]]\nalias = \"{a}\"\nmodel = \"org/{a}\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\n"))
        .collect();
    let coach = Coach::new(
        Registry::parse(&models).unwrap(),
        None,
        Arc::new(fake),
        Some(seed),
    )
    .with_budget(roomy());
    coach.set_signer(Signer::new(FeedbackKey::random()));
    coach
}

/// `b`'s share of comments 300 to 399, a comment a second; with `voting`,
/// the crowd votes down 80 % of `a`'s comments and 20 % of `b`'s, up the rest.
async fn share_of_b(voting: bool) -> f64 {
    let coach = coach(5);
    let mut crowd = StdRng::seed_from_u64(11);
    let mut late_b = 0;
    for i in 0..400 {
        let c = coach.comment(input(i), visitor(i)).await;
        assert!(!c.fallback, "{:?}", c.tried);
        let down = crowd.random_bool(if c.model == "a" { 0.8 } else { 0.2 });
        if voting {
            let id = coach
                .verify_vote(c.id.as_deref().expect("an id"))
                .expect("our own id");
            coach.vote(id, if down { Vote::Down } else { Vote::Up });
        }
        if i >= 300 && c.model == "b" {
            late_b += 1;
        }
        tokio::time::advance(Duration::from_secs(1)).await;
    }
    f64::from(late_b) / 100.0
}

#[tokio::test(start_paused = true)]
async fn a_crowd_that_finds_as_comments_unhelpful_moves_the_share_to_b() {
    let (without, with) = (share_of_b(false).await, share_of_b(true).await);
    assert!(
        (0.35..=0.65).contains(&without),
        "without votes b wrote {without}"
    );
    assert!(with >= 0.65, "with votes b wrote {with} of the last 100");
}

#[tokio::test(start_paused = true)]
async fn an_unsigned_comment_is_the_same_answer_without_an_id() {
    let coach = coach(5);
    let signed = coach.comment(input(0), visitor(0)).await;
    let unsigned = coach.comment_unsigned(input(1), visitor(1)).await;
    assert!(signed.id.is_some() && !signed.fallback, "{signed:?}");
    assert_eq!(unsigned.id, None);
    assert!(!unsigned.fallback, "{:?}", unsigned.tried);
}
