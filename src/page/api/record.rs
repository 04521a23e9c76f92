//! The insights' side of `POST /api/comment` (issue 23): the optional
//! `visit` and `attempt` checked with the other fields, and the attempt
//! recorded once the comment is made (`crate::insights::capture` maps the
//! comment to its outcome). Recording goes through the [`Recorder`] in the
//! page's context: a `try_send`, so it never waits and never fails the comment.

use axum::http::HeaderMap;
use leptos::prelude::use_context;

use crate::{
    coach::{text::input::InputError, Comment},
    insights::{
        capture::{attempt_of, opted_out, AskedPoint},
        AttemptNumbers, Event, Recorder, VisitId,
    },
    lesson::neuron::Params,
};

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
        let named = |e: crate::insights::FieldError| InputError {
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

/// Records the attempt `comment` answered, unless the request opted out
/// (`DNT: 1`, `Sec-GPC: 1`) or recording is off.
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
    if let Some(attempt) = attempt_of(visit, point, comment) {
        recorder.record(Event::Attempt(attempt));
    }
}
