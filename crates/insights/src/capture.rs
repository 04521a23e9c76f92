//! What the server takes from a request to record (server only): whether the
//! visitor asked not to be tracked ([`opted_out`]), the [`Attempt`] a
//! comment request makes ([`Recording`], [`attempt_of`]), and the [`Vote`]
//! a vote on a comment makes ([`record_vote`]).
//!
//! `DNT: 1` or `Sec-GPC: 1` on a request means nothing is recorded for it;
//! the page and its comments work as before.
//!
//! An attempt's outcome, from the coach's [`Comment`]:
//! - `served`: a model's comment was shown (`fallback` false);
//! - `rejected`, with a reason, when the offline commentator spoke because
//!   a limit kept the models out (`limited: client`, `limited: busy`,
//!   `limited: daily_budget`) or, failing that, because the reply checks
//!   refused a model's answer (the first refusal's reason, e.g. `too long`;
//!   one outside [`Reason`]'s alphabet is kept as `rejected`);
//! - `offline`: the offline commentator spoke for any other cause (no model
//!   configured, every model timed out or failed).
//!
//! The comment's model is its `model` (`offline` for the commentator); its
//! latency is the comment's own `latency_ms` (capped at the store's limit).
//!
//! Not recorded (and counted, [`Refusal`]): a comment answered over a limit
//! (`limited`: the client's rate, the models being busy, the daily budget),
//! and attempts numbered past [`AttemptNumbers::MAX_RECORDED`]. The store
//! leaves out an attempt of no recent visit. A room's visit's attempt is
//! dated as the room keeps time ([`Rooms::touch`]).

use http::{header::DNT, HeaderMap, HeaderName};

use super::{
    codes::{Tier, Verdict},
    event::{Attempt, AttemptNumbers, AttemptOutcome, Vote},
    recorder::{Recorder, Refusal},
    rooms::Rooms,
    values::{CommentKey, Minute, ModelName, Reason, VisitId},
    Event,
};
use coach::{
    feedback::{self, CommentId},
    outcome::Outcome,
    Comment, Limited,
};
use lesson::neuron::Params;
use vocabulary::FieldError;

/// The point of a lesson a comment request asked about.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LessonPoint {
    /// Lesson 1's weight and bias.
    One(Params),
    /// Lesson 2's `[w1, w2, b]`.
    Two([f64; 3]),
}

/// Global Privacy Control's header (not among `http`'s names).
const SEC_GPC: HeaderName = HeaderName::from_static("sec-gpc");

/// Whether the request says `DNT: 1` or `Sec-GPC: 1`. The names are
/// constants: a `&str` would be parsed as a header name on every comment.
pub fn opted_out(headers: &HeaderMap) -> bool {
    [&DNT, &SEC_GPC].into_iter().any(|name| {
        headers
            .get_all(name)
            .iter()
            .any(|v| v.to_str().is_ok_and(|v| v.trim() == "1"))
    })
}

/// The point a comment request asked about, as the request gave it.
#[derive(Clone, Copy, Debug)]
pub struct AskedPoint {
    /// The attempt's number (1 for the visit's first).
    pub number: u32,
    pub error: f64,
    pub point: LessonPoint,
}

/// What to record once a comment request is answered: its visit and the
/// point it asked about, when it gave both (else nothing).
pub struct Recording(Option<(VisitId, AskedPoint)>);

impl Recording {
    /// `visit` and `attempt` checked (a bad one names its field). `earlier`
    /// is how many earlier errors the request sent: the attempt's number,
    /// when it gives none, is the next.
    pub fn check(
        visit: Option<&str>,
        attempt: Option<u32>,
        error: f64,
        earlier: usize,
        point: Option<LessonPoint>,
    ) -> Result<Self, FieldError> {
        let Some(visit) = visit else {
            return Ok(Self(None));
        };
        let visit = VisitId::parse(visit)?;
        let earlier = u32::try_from(earlier).unwrap_or(u32::MAX);
        let number = attempt.unwrap_or(earlier.saturating_add(1));
        if !(1..=AttemptNumbers::MAX_NUMBER).contains(&number) {
            return Err(FieldError::new(
                "attempt",
                format!("must be 1 to {}", AttemptNumbers::MAX_NUMBER),
            ));
        }
        Ok(Self(point.map(|point| {
            let asked = AskedPoint {
                number,
                error,
                point,
            };
            (visit, asked)
        })))
    }

    /// The visit it names.
    pub fn visit(&self) -> Option<&VisitId> {
        self.0.as_ref().map(|(visit, _)| visit)
    }

    /// Records the attempt `comment` answered, unless the request opted out
    /// (`DNT: 1`, `Sec-GPC: 1`), recording is off, or the rules above leave
    /// it out. Never waits (the recorder's queue) and never fails.
    pub fn record(
        self,
        comment: &Comment,
        headers: &HeaderMap,
        recorder: &Recorder,
        rooms: &Rooms,
    ) {
        let Some((visit, point)) = self.0 else {
            return;
        };
        if !recorder.is_on() || opted_out(headers) {
            return;
        }
        if comment.limited.is_some() {
            return recorder.refuse(Refusal::Limited);
        }
        if point.number > AttemptNumbers::MAX_RECORDED {
            return recorder.refuse(Refusal::AttemptNumber);
        }
        let in_room = rooms.touch(&visit);
        if let Some(mut attempt) = attempt_of(visit, point, comment) {
            if let Some(in_room) = in_room {
                attempt.at = in_room.at;
            }
            recorder.record(Event::Attempt(attempt));
        }
    }
}

/// The attempt `comment` answered, or `None` when a value is out of the
/// store's shape (then nothing is recorded; the comment is unaffected).
pub fn attempt_of(visit: VisitId, point: AskedPoint, comment: &Comment) -> Option<Attempt> {
    let latency = comment.latency_ms.min(AttemptNumbers::MAX_LATENCY_MS);
    let numbers = match point.point {
        LessonPoint::One(p) => {
            AttemptNumbers::new(point.number, point.error, p.weight, p.bias, latency)
        }
        LessonPoint::Two(w) => AttemptNumbers::two(point.number, point.error, w, latency),
    }
    .ok()?;
    Some(Attempt {
        visit,
        numbers,
        lang: comment.lang,
        model: ModelName::parse(&comment.model).ok()?,
        outcome: outcome_of(comment),
        at: Minute::now(),
    })
}

/// The mapping of the module docs.
pub fn outcome_of(comment: &Comment) -> AttemptOutcome {
    if !comment.fallback {
        return AttemptOutcome::Served;
    }
    let reason = match comment.limited {
        Some(Limited::Client) => Some("limited: client".to_string()),
        Some(Limited::Busy) => Some("limited: busy".to_string()),
        Some(Limited::DailyBudget) => Some("limited: daily_budget".to_string()),
        None => comment.tried.iter().find_map(|t| match &t.outcome {
            Outcome::Rejected(why) => Some(why.clone()),
            _ => None,
        }),
    };
    match reason.map(|why| Reason::parse(&why).or_else(|_| Reason::parse("rejected"))) {
        Some(Ok(why)) => AttemptOutcome::Rejected(why),
        _ => AttemptOutcome::Offline,
    }
}

#[cfg(test)]
mod tests;

/// Records a vote on the comment `id` names (`POST /api/feedback`), unless
/// the request opted out or recording is off: what the id names, the vote,
/// the minutes the comment was written and the vote cast; never who voted.
pub fn record_vote(id: &CommentId, vote: feedback::Vote, headers: &HeaderMap, recorder: &Recorder) {
    if !recorder.is_on() || opted_out(headers) {
        return;
    }
    if let Some(vote) = vote_of(id, vote, Minute::now()) {
        recorder.record(Event::Vote(vote));
    }
}

/// The stored shape of a vote cast at `at`, `None` when the id's alias is
/// out of the store's shape (the registry never makes one).
pub fn vote_of(id: &CommentId, vote: feedback::Vote, at: Minute) -> Option<Vote> {
    Some(Vote {
        comment: CommentKey::parse(&id.key()).ok()?,
        lesson: id.lesson,
        model: ModelName::parse(&id.model).ok()?,
        lang: id.lang,
        tier: match id.tier {
            coach::Tier::Far => Tier::Far,
            coach::Tier::Close => Tier::Close,
            coach::Tier::Goal => Tier::Goal,
        },
        verdict: match vote {
            feedback::Vote::Up => Verdict::Up,
            feedback::Vote::Down => Verdict::Down,
        },
        issued: Minute(i64::try_from(id.issued_s / 60).unwrap_or(i64::MAX)),
        at,
    })
}
