//! The page's server function (`POST /api/comment`): a thin wrapper over the
//! same coach as `GET /error`, as in the Leptos examples. It reads the
//! request's edges (language, client address, rate limit) and hands a
//! validated [`coach::text::input::CoachInput`] to [`coach::Coach::comment`].
//!
//! Errors travel as [`CommentError`], through Leptos's `FromServerFnError`:
//! JSON shaped like `/error`'s (`{"error": …, "field": …}`), so a caller reads
//! which field was refused instead of parsing a string. A body server_fn could
//! not read or decode (it would answer `500`) never reaches it: [`body`]
//! refuses it first, naming the field.

use leptos::{prelude::*, server_fn};
use serde::{Deserialize, Serialize};
use server_fn::{
    codec::JsonEncoding,
    error::{FromServerFnError, ServerFnErrorErr},
};

use coach::{text::input::InputError, Comment};

#[cfg(feature = "ssr")]
pub mod body;
#[cfg(feature = "ssr")]
mod record;

/// Why the server function gave no comment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, thiserror::Error)]
#[error("{error}")]
pub struct CommentError {
    /// What went wrong, in a sentence.
    pub error: String,
    /// The argument that was refused (`error`, `attempts`, `weight`, …), if one was.
    pub field: Option<String>,
}

impl From<InputError> for CommentError {
    fn from(e: InputError) -> Self {
        Self {
            error: e.message,
            field: Some(e.field),
        }
    }
}

impl FromServerFnError for CommentError {
    type Encoder = JsonEncoding;

    /// The server function's own failures (a body that is not JSON, …).
    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        Self {
            error: value.to_string(),
            field: None,
        }
    }
}

/// A comment on the current attempt. `attempts` holds the earlier errors, oldest
/// first (none when left out); `weight` and `bias` (both or neither) the
/// current point; `lang` is read as `/error` reads it (`pt-BR`, `ZH`), and
/// without it the browser's `Accept-Language` decides. Validation is
/// the one `GET /error` uses, and a rejected input answers 400. A visitor over
/// the per-client rate limit still gets a comment: the offline commentator's,
/// flagged `limited: "client"`. A call the browser abandons (a newer attempt
/// superseded it, so the connection closed and this future was dropped) is
/// not charged to the visitor's allowance.
///
/// With `visit` (the page's visit id, `insights::VisitId`) the
/// attempt is recorded for the insights once the comment is made: number
/// `attempt` (default: the earlier errors + 1), the point, and the comment's
/// model, outcome and latency (`insights::capture`). A bad `visit` or
/// `attempt` is a 400 naming it. Nothing is recorded without `visit`,
/// without `weight` and `bias`, when the request says `DNT: 1` or
/// `Sec-GPC: 1`, for a comment answered over a limit, or past attempt 500
/// (`record`); recording never waits and never fails the comment. A visit
/// seated in a class room has its own allowance, whatever its address.
// JSON, not the default form encoding: a form cannot carry an empty list.
#[server(prefix = "/api", endpoint = "comment", input = server_fn::codec::Json)]
pub async fn get_comment(
    error: f64,
    #[server(default)] attempts: Vec<f64>,
    #[server(default)] weight: Option<f64>,
    #[server(default)] bias: Option<f64>,
    #[server(default)] lang: Option<String>,
    #[server(default)] visit: Option<String>,
    #[server(default)] attempt: Option<u32>,
) -> Result<Comment, CommentError> {
    use crate::server::limits::{ClientIp, ClientLimiter};
    use axum::{
        http::{header::ACCEPT_LANGUAGE, HeaderMap, StatusCode},
        Extension,
    };
    use coach::{
        text::input::{parse_lang, CoachInput},
        Coach, Limited,
    };
    use std::sync::Arc;
    use vocabulary::Lang;

    let status = |code: StatusCode| {
        if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(code);
        }
    };
    let Some(coach) = use_context::<Arc<Coach>>() else {
        status(StatusCode::SERVICE_UNAVAILABLE);
        return Err(CommentError {
            error: "the coach is not running".into(),
            field: None,
        });
    };
    let refuse = |e: InputError| {
        status(StatusCode::BAD_REQUEST);
        CommentError::from(e)
    };
    let lang = match lang.as_deref() {
        Some(tag) => parse_lang(tag).map_err(refuse)?,
        None => leptos_axum::extract::<HeaderMap>()
            .await
            .ok()
            .and_then(|headers| {
                let value = headers.get(ACCEPT_LANGUAGE)?.to_str().ok()?;
                Lang::from_accept_language(value)
            })
            .unwrap_or_default(),
    };
    let params = match (weight, bias) {
        (Some(w), Some(b)) => Some(lesson::neuron::Params::new(w, b)),
        (None, None) => None,
        (Some(_), None) => return Err(refuse(InputError::required("bias", "weight"))),
        (None, Some(_)) => return Err(refuse(InputError::required("weight", "bias"))),
    };
    let recording =
        record::Recording::check(visit, attempt, error, &attempts, params).map_err(refuse)?;
    let input = CoachInput::new(error, attempts, params, None, lang).map_err(refuse)?;
    let client = leptos_axum::extract::<Extension<ClientIp>>().await.ok();
    let limiter = use_context::<Arc<ClientLimiter>>();
    // A learner seated in a class room is a client of its own.
    let seated = recording.seated();
    // Dropped uncommitted if this future is dropped first: see `ClientLimiter`.
    let taken = match (&limiter, client, recording.visit()) {
        (Some(limiter), _, Some(visit)) if seated => Some(limiter.charge_visit(visit.as_str())),
        (Some(limiter), Some(Extension(ClientIp(ip))), _) => Some(limiter.charge(ip)),
        _ => None,
    };
    let charge = match taken {
        Some(Err(_)) => {
            let comment = coach.limited(&input, Limited::Client);
            record::attempt(recording, &comment).await;
            return Ok(comment);
        }
        Some(Ok(charge)) => Some(charge),
        None => None,
    };
    let comment = coach
        .comment(input, ClientIp::budget_key(client.map(|c| c.0)))
        .await;
    if let Some(charge) = charge {
        charge.keep();
    }
    record::attempt(recording, &comment).await;
    Ok(comment)
}
