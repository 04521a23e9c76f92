//! `POST /api/feedback`: a visitor's vote on a comment, `{"id", "vote":
//! "up"|"down"}` (and, from the page, its `visit`), answered `204`.
//!
//! In order: the body (the one JSON extractor: a 400 naming the field), the
//! vote (`up` or `down`), the id (one the server signed within the last
//! day: otherwise a 400 naming `id`), then the client's allowance of votes
//! a day (`JAY_VOTES_PER_DAY`; a visit seated in a class room has its own,
//! as for comments): over it, `429` and `Retry-After`, and the vote does not
//! count. A vote that counts replaces any earlier one on the same comment
//! and teaches the router (`coach::feedback`), whoever sends it: the
//! visitor's choice is aggregate, so `DNT` and `Sec-GPC` do not hold it
//! back from the router, only from the insights' store, which keeps what
//! the comment's id names, the vote and the minutes. Cross-site posts were
//! refused before this handler (`server::origin`).

use axum::{extract::State, http::HeaderMap, http::StatusCode, Extension};
use serde::Deserialize;

use crate::server::{
    error::ApiError,
    json::{AppJson, JsonBody},
    limits::ClientIp,
    state::AppState,
};
use coach::feedback::Vote;
use insights::{capture, VisitId};
use vocabulary::FieldError;

/// `POST /api/feedback`'s body.
#[derive(Debug, Deserialize)]
pub struct FeedbackBody {
    id: String,
    vote: String,
    /// The page's visit: whose allowance a seated learner spends (never stored).
    #[serde(default)]
    visit: Option<String>,
}

impl JsonBody for FeedbackBody {
    const FIELDS: &'static [&'static str] = &["id", "vote", "visit"];
    /// An id is under 150 bytes; a visit's id under 64.
    const LIMIT: usize = 1024;
}

/// `POST /api/feedback`.
pub async fn post(
    State(app): State<AppState>,
    client: Option<Extension<ClientIp>>,
    headers: HeaderMap,
    AppJson(body): AppJson<FeedbackBody>,
) -> Result<StatusCode, ApiError> {
    let vote = Vote::parse(&body.vote)
        .ok_or_else(|| FieldError::new("vote", "must be \"up\" or \"down\""))?;
    let id = app.coach.verify_vote(&body.id)?;
    let seat = body
        .visit
        .as_deref()
        .and_then(|v| VisitId::parse(v).ok())
        .filter(|visit| app.rooms.touch(visit).is_some_and(|in_room| in_room.seated));
    let votes = &app.report_limits.votes;
    let charge = match (seat, client) {
        (Some(visit), _) => Some(votes.charge_visit(visit.as_str())),
        (None, Some(Extension(ClientIp(ip)))) => Some(votes.charge(ip)),
        (None, None) => None,
    };
    match charge {
        Some(Err(wait)) => return Err(ApiError::rate_limited("votes cast", wait)),
        Some(Ok(charge)) => charge.keep(),
        None => {}
    }
    let voted = app.coach.vote(id, vote);
    app.metrics.vote(&voted.id.model, voted.id.lang, vote);
    capture::record_vote(&voted.id, vote, &headers, &app.recorder);
    Ok(StatusCode::NO_CONTENT)
}
