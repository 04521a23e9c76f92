//! Each request's prompt shows its own draw of the tier's examples, from the
//! coach's seeded generator: varied across requests, the same for the same
//! seed. A model that parrots the example it was shown is rejected.

use super::*;
use crate::{
    budget::ClientKey, input::CoachInput, prompt::Prompt, providers::ProviderError, Outcome,
};
use vocabulary::Lang;

/// Records the example answers of every prompt, and answers with the last one.
#[derive(Default)]
struct Parrot {
    shown: Mutex<Vec<Vec<String>>>,
}

#[async_trait::async_trait]
impl Provider for Parrot {
    async fn complete(
        &self,
        _: &crate::model::ModelSpec,
        prompt: &Prompt,
        _: Duration,
    ) -> Result<String, ProviderError> {
        let answers: Vec<String> = prompt.examples.iter().map(|(_, a)| a.clone()).collect();
        let last = answers.last().cloned().unwrap_or_default();
        self.shown
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(answers);
        Ok(last)
    }
}

fn registry() -> Registry {
    Registry::parse(
        "[[models]]\nalias = \"parrot\"\nmodel = \"org/parrot\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\n",
    )
    .unwrap()
}

/// The examples shown to 12 requests of a coach seeded with `seed`, and what
/// became of the parrot's answers.
async fn shown(seed: u64) -> (Vec<Vec<String>>, Vec<Outcome>) {
    let parrot = Arc::new(Parrot::default());
    let coach = Coach::new(registry(), None, parrot.clone(), Some(seed));
    let mut outcomes = Vec::new();
    for lang in [Lang::En, Lang::Pt, Lang::Zh] {
        for _ in 0..4 {
            let input = CoachInput {
                error: 812.0,
                attempts: vec![900.0],
                params: None,
                lesson: lesson::lessons::Which::One,
                two: None,
                model: Some("parrot".into()),
                lang,
            };
            let comment = coach.comment(input, ClientKey::default()).await;
            assert!(comment.fallback, "{comment:?}");
            outcomes.extend(comment.tried.into_iter().map(|t| t.outcome));
        }
    }
    let shown = parrot
        .shown
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .clone();
    (shown, outcomes)
}

#[tokio::test]
async fn each_request_draws_its_examples_and_a_seed_fixes_the_draws() {
    let (first, outcomes) = shown(11).await;
    assert_eq!(first.len(), 12);
    assert!(outcomes
        .iter()
        .all(|o| *o == Outcome::Rejected("copies an example".into())));
    // Within a language, the four prompts did not all show the same two.
    for lang in first.chunks(4) {
        assert!(lang.iter().any(|s| *s != lang[0]), "{lang:?}");
    }
    let (again, _) = shown(11).await;
    assert_eq!(first, again, "the same seed, the same draws");
    let (other, _) = shown(12).await;
    assert_ne!(first, other, "another seed, other draws");
}
