//! The coach's front door: a comment for one attempt ([`Coach::comment`],
//! which runs one [`Request`]), the offline comment for a request a limit
//! kept from the models, and the lines of `tried`.

use tokio::time::Instant;

use super::{millis, request::Request, Coach, OFFLINE};
use crate::{
    budget::ClientKey,
    input::CoachInput,
    offline,
    outcome::Outcome,
    prompt,
    response::{Comment, Limited, Tier, Tried},
};

impl Coach {
    /// The comment for one validated attempt, asked by `client` (whose share
    /// of the day's model calls it spends). Never fails: the offline
    /// commentator answers when no model does (see [`Request`]).
    pub async fn comment(&self, input: CoachInput, client: ClientKey) -> Comment {
        let started = Instant::now();
        let registry = self.registry();
        let prompt = prompt::build_drawn(&input, self.examples_draw());
        Request::new(self, &registry, &input, &prompt, client, started)
            .run()
            .await
    }

    /// The offline commentator's comment for a request a limit kept from the
    /// models (`POST /api/comment`, over the per-client rate).
    pub fn limited(&self, input: &CoachInput, limit: Limited) -> Comment {
        self.observed(offline_comment(input, Some(limit)))
    }

    pub(super) fn observed(&self, comment: Comment) -> Comment {
        if let Some(observer) = self.observer() {
            observer.comment(&comment);
        }
        comment
    }
}

/// The offline commentator's comment, flagged with the limit that kept the
/// models out, if one did.
pub(super) fn offline_comment(input: &CoachInput, limited: Option<Limited>) -> Comment {
    Comment {
        comment: offline::comment(input),
        model: OFFLINE.into(),
        provider: OFFLINE.into(),
        tier: Tier::of(input.error),
        lang: input.lang,
        latency_ms: 0,
        fallback: true,
        limited,
        tried: Vec::new(),
    }
}

/// One line of `tried`.
pub(super) fn tried_entry(alias: &str, outcome: Outcome, latency: std::time::Duration) -> Tried {
    Tried {
        model: alias.to_string(),
        outcome,
        latency_ms: millis(latency),
        served_by: None,
    }
}
