//! What visitors say of the comments, as data the router learns from.
//!
//! Every comment carries an opaque [`id`] the server signs: what wrote it
//! (the model's alias or `offline`), its language and tier, when, whether
//! its votes may train the router (not a model a caller forced), and a
//! random number that tells it from every other comment. A vote names that
//! id and `up` or `down` ([`Vote`]); an id this server did not sign, or
//! signed more than a day ago, is refused. The [`ballots`] keep the vote in
//! effect for each comment, so a second vote on the same comment replaces
//! the first instead of adding to it; the router learns each vote as a
//! success (`up`) or a rejected answer (`down`) of that model in that
//! language, decayed as its other calls are (`routing::votes`).
//!
//! How many votes a client may cast is the server's to limit (one
//! allowance a day per client); what is stored for the insights is the
//! insights' (nothing about the person).
//!
//! After TensorZero's feedback on each inference ("Feedback", TensorZero
//! docs, 2025): a judgement of one output, by its id, as data.

pub mod ballots;
pub mod id;
pub mod key;

use serde::{Deserialize, Serialize};

pub use ballots::{Ballots, Cast};
pub use id::{CommentId, Signer};
pub use key::{FeedbackKey, KeyError};

/// What a visitor says of a comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Vote {
    /// Helpful.
    Up,
    /// Not helpful.
    Down,
}

impl Vote {
    pub fn as_str(self) -> &'static str {
        match self {
            Vote::Up => "up",
            Vote::Down => "down",
        }
    }

    /// `up` or `down`, as a request writes it.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "up" => Some(Vote::Up),
            "down" => Some(Vote::Down),
            _ => None,
        }
    }
}

/// How long after its comment a vote is taken.
pub const VOTE_WINDOW: std::time::Duration = std::time::Duration::from_secs(24 * 60 * 60);
