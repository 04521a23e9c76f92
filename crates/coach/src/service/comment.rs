//! The coach's front door: a comment for one attempt ([`Coach::comment`],
//! which runs one [`Request`]), the offline comment for a request a limit
//! kept from the models; each with its id for votes (`votes`).

use tokio::time::Instant;

use super::{
    request::{offline_comment, Request},
    Coach,
};
use crate::{
    budget::ClientKey,
    input::CoachInput,
    prompt,
    response::{Comment, Limited},
};

impl Coach {
    /// The comment for one validated attempt, asked by `client` (whose share
    /// of the day's model calls it spends). Never fails: the offline
    /// commentator answers when no model does (see [`Request`]).
    pub async fn comment(&self, input: CoachInput, client: ClientKey) -> Comment {
        let comment = self.answer(&input, client).await;
        self.stamped(comment, &input)
    }

    /// The same comment without its id, for a caller that passes on only
    /// its text (`GET /error` as plain text): no one can vote on it, so
    /// nothing is signed.
    pub async fn comment_unsigned(&self, input: CoachInput, client: ClientKey) -> Comment {
        self.answer(&input, client).await
    }

    async fn answer(&self, input: &CoachInput, client: ClientKey) -> Comment {
        let started = Instant::now();
        let registry = self.registry();
        let prompt = prompt::build_drawn(input, self.examples_draw());
        Request::new(self, &registry, input, &prompt, client, started)
            .run()
            .await
    }

    /// The offline commentator's comment for a request a limit kept from the
    /// models (`POST /api/comment`, over the per-client rate).
    pub fn limited(&self, input: &CoachInput, limit: Limited) -> Comment {
        self.stamped(self.observed(offline_comment(input, Some(limit))), input)
    }

    pub(super) fn observed(&self, comment: Comment) -> Comment {
        if let Some(observer) = self.observer() {
            observer.comment(&comment);
        }
        comment
    }
}
