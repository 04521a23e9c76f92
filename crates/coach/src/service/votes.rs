//! Comments signed for votes, and votes learned: the coach's side of
//! [`crate::feedback`]. Every comment the coach gives is stamped with its
//! [`CommentId`] once a signer is set ([`Coach::set_signer`]; the server
//! sets one at start), and a vote on one is first verified
//! ([`Coach::verify_vote`]: the caller charges the client's allowance in
//! between) and then learned ([`Coach::vote`]): the ballots keep the vote
//! in effect per comment, and the router learns it, in place of the one it
//! replaces, when the comment's votes train the router.

use std::{
    sync::{Mutex, OnceLock, PoisonError},
    time::{SystemTime, UNIX_EPOCH},
};

use rand::RngCore;
use tokio::time::Instant;

use super::Coach;
use crate::{
    feedback::{Ballots, Cast, CommentId, Signer, Vote},
    input::CoachInput,
    response::Comment,
};
use vocabulary::FieldError;

/// The signer, once set, and the votes in effect.
#[derive(Default)]
pub(super) struct Feedback {
    signer: OnceLock<Signer>,
    ballots: Mutex<Ballots>,
}

/// A vote the coach took.
#[derive(Clone, Debug, PartialEq)]
pub struct Voted {
    /// What the id named.
    pub id: CommentId,
    pub vote: Vote,
    /// The vote it replaced on the same comment, if any.
    pub replaced: Option<Vote>,
}

/// Seconds since 1970, by the wall clock (ids outlive a restart and cross
/// replicas, so not the monotonic one).
fn now_s() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl Coach {
    /// Signs every comment from now on with `signer` (set once).
    pub fn set_signer(&self, signer: Signer) {
        let _ = self.feedback.signer.set(signer);
    }

    /// `comment` with its id, when a signer is set: its votes train the
    /// router unless a caller forced the model or the built-in coach wrote it.
    pub(super) fn stamped(&self, mut comment: Comment, input: &CoachInput) -> Comment {
        if let Some(signer) = self.feedback.signer.get() {
            let id = CommentId {
                model: comment.model.clone(),
                lang: comment.lang,
                tier: comment.tier,
                lesson: input.lesson,
                issued_s: now_s(),
                trains: input.model.is_none() && !comment.fallback,
                nonce: rand::rng().next_u64(),
            };
            comment.id = Some(signer.sign(&id));
        }
        comment
    }

    /// What `id` names, if the coach signed it within the last day: a
    /// refusal naming `id` otherwise (votes are not taken without a signer).
    pub fn verify_vote(&self, id: &str) -> Result<CommentId, FieldError> {
        match self.feedback.signer.get() {
            Some(signer) => signer.verify(id, now_s()),
            None => Err(FieldError::new("id", "votes are not taken here")),
        }
    }

    /// Takes `vote` on the comment `id` names (verified by
    /// [`Coach::verify_vote`]): it replaces any earlier vote on the same
    /// comment, and the router learns it if the comment's votes train it.
    pub fn vote(&self, id: CommentId, vote: Vote) -> Voted {
        let cast = Cast {
            vote,
            at: Instant::now(),
        };
        // The ballots' lock is let go before the router's is taken.
        let replaced = self
            .feedback
            .ballots
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .cast(id.nonce, id.issued_s, cast, now_s());
        if id.trains {
            self.router()
                .record_vote(&id.model, id.lang, vote, replaced, cast.at);
        }
        Voted {
            id,
            vote,
            replaced: replaced.map(|c| c.vote),
        }
    }
}
