//! The insights' side of `POST /api/comment`: the optional `visit` and
//! `attempt` checked with the other fields, and the attempt recorded once
//! the comment is made (`insights::capture` maps the comment to its
//! outcome). Recording goes through the [`Recorder`] in the page's context:
//! a `try_send`, so it never waits and never fails the comment.
//!
//! Not recorded (and counted, `Refusal`): a comment answered over a limit
//! (`limited`: the client's rate, the models being busy, the daily budget),
//! and attempts numbered past `AttemptNumbers::MAX_RECORDED`. The store
//! leaves out an attempt of no recent visit. A room's visit's attempt is
//! dated as the room keeps time (`insights::rooms`).

use axum::http::HeaderMap;
use leptos::prelude::use_context;

use coach::{text::input::InputError, Comment};
use insights::{
    capture::{attempt_of, opted_out, AskedPoint},
    AttemptNumbers, Event, Recorder, Refusal, Rooms, VisitId,
};
use lesson::neuron::Params;

/// What to record after the comment, when the request asked for it.
pub struct Recording(Option<(VisitId, AskedPoint)>);

impl Recording {
    /// `visit` and `attempt` checked (a bad one names its field); nothing to
    /// record without `visit` or without the point.
    pub fn check(
        visit: Option<String>,
        attempt: Option<u32>,
        error: f64,
        attempts: &[f64],
        params: Option<Params>,
    ) -> Result<Self, InputError> {
        let named = |e: insights::FieldError| InputError {
            field: e.field.into(),
            message: e.message,
        };
        let Some(visit) = visit else {
            return Ok(Self(None));
        };
        let visit = VisitId::parse(&visit).map_err(named)?;
        let earlier = u32::try_from(attempts.len()).unwrap_or(u32::MAX);
        let number = attempt.unwrap_or(earlier.saturating_add(1));
        if !(1..=AttemptNumbers::MAX_NUMBER).contains(&number) {
            return Err(InputError {
                field: "attempt".into(),
                message: format!("must be 1 to {}", AttemptNumbers::MAX_NUMBER),
            });
        }
        Ok(Self(params.map(|p| {
            let point = AskedPoint {
                number,
                error,
                weight: p.weight,
                bias: p.bias,
            };
            (visit, point)
        })))
    }
}

impl Recording {
    /// The visit it names.
    pub fn visit(&self) -> Option<&VisitId> {
        self.0.as_ref().map(|(visit, _)| visit)
    }

    /// Whether its visit holds a seat in a class room now (then it is a
    /// client of its own for the rate limit).
    pub fn seated(&self) -> bool {
        let rooms = use_context::<std::sync::Arc<Rooms>>();
        self.visit()
            .zip(rooms)
            .and_then(|(visit, rooms)| rooms.touch(visit))
            .is_some_and(|in_room| in_room.seated)
    }
}

/// Records the attempt `comment` answered, unless the request opted out
/// (`DNT: 1`, `Sec-GPC: 1`), recording is off, or the module's rules leave it out.
pub async fn attempt(recording: Recording, comment: &Comment) {
    let Some((visit, point)) = recording.0 else {
        return;
    };
    let Some(recorder) = use_context::<Recorder>().filter(Recorder::is_on) else {
        return;
    };
    let headers = leptos_axum::extract::<HeaderMap>().await.ok();
    if headers.as_ref().is_none_or(opted_out) {
        return;
    }
    if comment.limited.is_some() {
        return recorder.refuse(Refusal::Limited);
    }
    if point.number > AttemptNumbers::MAX_RECORDED {
        return recorder.refuse(Refusal::AttemptNumber);
    }
    let in_room = use_context::<std::sync::Arc<Rooms>>().and_then(|rooms| rooms.touch(&visit));
    if let Some(mut attempt) = attempt_of(visit, point, comment) {
        if let Some(in_room) = in_room {
            attempt.at = in_room.at;
        }
        recorder.record(Event::Attempt(attempt));
    }
}
