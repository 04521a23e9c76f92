//! The vote in effect on each comment still open to votes, so that a
//! second vote replaces the first: the router unlearns the first (as
//! decayed since it was cast) and learns the second.
//!
//! Bounded: a comment leaves when its day of votes is over (later votes on
//! it are refused anyway), and past [`MAX_BALLOTS`] the comment closest to
//! its end leaves first (a vote on it after that counts as a first vote).

use std::collections::{BTreeSet, HashMap};

use tokio::time::Instant;

use super::{Vote, VOTE_WINDOW};

/// The most comments whose votes are kept.
pub const MAX_BALLOTS: usize = 100_000;

/// A vote in effect, and when it was cast.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cast {
    pub vote: Vote,
    pub at: Instant,
}

/// The votes in effect, by comment.
#[derive(Debug, Default)]
pub struct Ballots {
    /// By the comment's nonce: its vote, and the second its voting ends.
    votes: HashMap<u64, (Cast, u64)>,
    /// (when its voting ends, nonce), soonest first.
    ending: BTreeSet<(u64, u64)>,
}

impl Ballots {
    /// Comments with a vote in effect.
    pub fn len(&self) -> usize {
        self.votes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.votes.is_empty()
    }

    /// `cast` on the comment `nonce`, issued at `issued_s`, now `now_s`
    /// (seconds since 1970): the vote it replaces, if any.
    pub fn cast(&mut self, nonce: u64, issued_s: u64, cast: Cast, now_s: u64) -> Option<Cast> {
        self.close_ended(now_s);
        let ends_s = issued_s.saturating_add(VOTE_WINDOW.as_secs());
        if let Some((earlier, _)) = self.votes.insert(nonce, (cast, ends_s)) {
            return Some(earlier);
        }
        self.ending.insert((ends_s, nonce));
        while self.votes.len() > MAX_BALLOTS {
            match self.ending.pop_first() {
                Some((_, oldest)) => self.votes.remove(&oldest),
                None => break,
            };
        }
        None
    }

    fn close_ended(&mut self, now_s: u64) {
        while let Some(&(ends_s, nonce)) = self.ending.first() {
            if ends_s > now_s {
                break;
            }
            self.ending.pop_first();
            self.votes.remove(&nonce);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cast(vote: Vote) -> Cast {
        Cast {
            vote,
            at: Instant::now(),
        }
    }

    #[test]
    fn a_second_vote_replaces_the_first_and_a_closed_comment_is_forgotten() {
        let mut ballots = Ballots::default();
        assert_eq!(ballots.cast(1, 1000, cast(Vote::Up), 1000), None);
        let replaced = ballots.cast(1, 1000, cast(Vote::Down), 1010);
        assert_eq!(replaced.map(|c| c.vote), Some(Vote::Up));
        assert_eq!(ballots.len(), 1);
        assert_eq!(ballots.cast(2, 5000, cast(Vote::Up), 5000), None);
        // A day after comment 1 was issued its vote is gone.
        let day = VOTE_WINDOW.as_secs();
        assert_eq!(
            ballots.cast(3, 1000 + day, cast(Vote::Up), 1000 + day),
            None
        );
        assert_eq!(ballots.len(), 2);
        assert_eq!(ballots.cast(1, 1000, cast(Vote::Up), 1000 + day), None);
    }

    #[test]
    fn the_ledger_keeps_at_most_its_bound() {
        let mut ballots = Ballots::default();
        for nonce in 0..(MAX_BALLOTS as u64 + 10) {
            ballots.cast(nonce, 1000 + nonce, cast(Vote::Up), 1000);
        }
        assert_eq!(ballots.len(), MAX_BALLOTS);
        // The comments closest to their end left first.
        assert_eq!(ballots.cast(0, 1000, cast(Vote::Down), 1000), None);
        assert!(ballots
            .cast(
                MAX_BALLOTS as u64 + 9,
                1000 + MAX_BALLOTS as u64 + 9,
                cast(Vote::Down),
                1000
            )
            .is_some());
    }
}
