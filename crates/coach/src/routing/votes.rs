//! What a visitor's vote on a comment teaches the router: beside the reply
//! checks' verdict on every answer, the visitors' on the ones they read.
//!
//! A vote is learned in the record of the model and language that wrote the
//! comment, in the same decayed counts as its calls ([`super::learning`]):
//! `up` as a good answer, `down` as a rejected one, so a model whose fluent
//! comments pass every rule but help nobody loses its share as if the rules
//! had caught it, and regains it as the votes fade. A vote that replaces an
//! earlier one on the same comment first takes the earlier one back, as
//! much of it as is left after the decay since it was cast, so one comment
//! weighs one vote at most. Each language's record counts the votes in
//! effect ([`VoteTally`](super::by_lang::VoteTally)), for `/models`. No
//! latency, no call count, no breaker: a vote is not a call.

use tokio::time::Instant;

use super::{learning::decay, stats::Records};
use crate::feedback::{Cast, Vote};
use vocabulary::Lang;

/// A vote's weight in the decayed counts: (successes, failures, rejected).
fn weight(vote: Vote) -> (f64, f64, f64) {
    match vote {
        Vote::Up => (1.0, 0.0, 0.0),
        Vote::Down => (0.0, 1.0, 1.0),
    }
}

impl Records {
    /// Learns `vote` on a comment `alias` wrote in `lang`, in place of
    /// `replaced` (the vote it replaces on the same comment, if any). A
    /// model the registry no longer has learns nothing.
    pub fn learn_vote(
        &mut self,
        alias: &str,
        lang: Lang,
        vote: Vote,
        replaced: Option<Cast>,
        now: Instant,
    ) {
        let half_life = self.half_life;
        let Some(record) = self.models.get_mut(alias).map(|s| &mut s.by_lang[lang]) else {
            return;
        };
        if let Some(earlier) = replaced {
            let left = decay(now.saturating_duration_since(earlier.at), half_life);
            let (s, f, r) = weight(earlier.vote);
            record
                .decayed
                .remove(now, half_life, s * left, f * left, r * left);
            record.votes.take_back(earlier.vote);
        }
        let (s, f, r) = weight(vote);
        record.decayed.add_counts(now, half_life, s, f, r);
        record.votes.count(vote);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::routing::{by_lang::VoteTally, DEFAULT_HALF_LIFE};

    fn records() -> Records {
        let mut records = Records::default();
        records.sync(["a"]);
        records
    }

    fn counts(records: &Records, lang: Lang, now: Instant) -> (f64, f64, f64) {
        let decayed = &records.get("a").expect("a").by_lang[lang].decayed;
        let (s, f) = decayed.at(now, DEFAULT_HALF_LIFE);
        (s, f, decayed.rejected_at(now, DEFAULT_HALF_LIFE))
    }

    #[tokio::test(start_paused = true)]
    async fn a_vote_weighs_as_an_answer_and_a_second_replaces_the_first() {
        let mut r = records();
        let t0 = Instant::now();
        r.learn_vote("a", Lang::Pt, Vote::Up, None, t0);
        assert_eq!(counts(&r, Lang::Pt, t0), (1.0, 0.0, 0.0));
        assert_eq!(
            counts(&r, Lang::En, t0),
            (0.0, 0.0, 0.0),
            "its language only"
        );
        // A half-life later the visitor changes their mind: the half of the
        // up-vote still counted goes, a whole down-vote comes.
        tokio::time::advance(DEFAULT_HALF_LIFE).await;
        let t1 = Instant::now();
        let first = Cast {
            vote: Vote::Up,
            at: t0,
        };
        r.learn_vote("a", Lang::Pt, Vote::Down, Some(first), t1);
        let (s, f, rej) = counts(&r, Lang::Pt, t1);
        assert!(s.abs() < 1e-9 && (f - 1.0).abs() < 1e-9 && (rej - 1.0).abs() < 1e-9);
        let tally = r.get("a").expect("a").by_lang[Lang::Pt].votes;
        assert_eq!(tally, VoteTally { up: 0, down: 1 });
        // Voting down again replaces down with down: still one.
        let second = Cast {
            vote: Vote::Down,
            at: t1,
        };
        tokio::time::advance(Duration::from_secs(1)).await;
        r.learn_vote("a", Lang::Pt, Vote::Down, Some(second), Instant::now());
        let (_, f, _) = counts(&r, Lang::Pt, Instant::now());
        assert!((f - 1.0).abs() < 1e-9, "{f}");
        assert_eq!(r.get("a").expect("a").by_lang[Lang::Pt].votes.down, 1);
    }

    #[tokio::test(start_paused = true)]
    async fn an_unknown_model_learns_nothing() {
        let mut r = records();
        r.learn_vote("gone", Lang::En, Vote::Down, None, Instant::now());
        assert_eq!(counts(&r, Lang::En, Instant::now()), (0.0, 0.0, 0.0));
    }
}
