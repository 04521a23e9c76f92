//! A comment on an attempt, by either door: `GET /error` (other sites, and
//! the original Node server's callers: a query, the comment as plain text
//! unless JSON is asked for) and `POST /api/comment` (the page: a JSON body,
//! a JSON answer, and the attempt recorded for the insights). Both go
//! through one [`answer`]: the same checks of the numbers
//! (`coach::input`), the same language rule (`lang`, else
//! `Accept-Language`, else `JAY_DEFAULT_LANG`), the same per-client
//! allowance, the same coach.
//!
//! One difference, on purpose: over the allowance an external caller gets
//! `429` with `Retry-After` (it can wait and retry), while the page gets the
//! offline commentator's comment, flagged `limited: "client"` (a learner
//! should never see an error for moving a slider too often). A call its
//! client abandons (the connection closes: a newer attempt superseded it) is
//! not charged.

use std::net::IpAddr;

use axum::{
    extract::{RawQuery, Request, State},
    http::{
        header::{ACCEPT, ACCEPT_LANGUAGE, CONTENT_TYPE},
        HeaderMap, HeaderValue,
    },
    response::{IntoResponse, Response},
    Extension, Json,
};
use serde::Deserialize;

use crate::server::{
    error::ApiError,
    json::{AppJson, JsonBody},
    limits::ClientIp,
    negotiate::Format,
    state::AppState,
};
use coach::{
    input::{choose_lang, parse_lesson, point, point_two, CoachInput},
    Comment, Limited,
};
use insights::{
    capture::{LessonPoint, Recording},
    VisitId,
};
use lesson::lessons::Which;
use vocabulary::FieldError;

/// Longest query string `GET /error` reads (a history of hundreds of
/// attempts fits; only the latest 100 are kept).
pub const MAX_QUERY: usize = 16 * 1024;
/// Largest body `POST /api/comment` reads (the page sends about 2 KiB at most).
pub const MAX_BODY: usize = 16 * 1024;

/// What happens over the allowance: the difference between the two doors.
#[derive(Clone, Copy)]
enum OverLimit {
    /// `429`, `Retry-After` (`GET /error`).
    Refuse,
    /// The offline commentator's comment, `limited: "client"` (the page).
    OfflineComment,
}

/// Whose allowance a request spends.
enum Client<'a> {
    /// The address's (as `limits::tag_client` named it).
    Address(IpAddr),
    /// A visit seated in a class room: a client of its own, whatever its
    /// address (a class behind one school address is not one client).
    Seat(&'a VisitId, Option<IpAddr>),
    /// Unknown (a test's router without an address).
    Nobody,
}

/// Checks the model a caller forces, charges the client's allowance and
/// asks the coach (for a comment with its id for votes when `signed`); the
/// allowance is given back if this future is dropped before the answer.
async fn answer(
    app: &AppState,
    input: CoachInput,
    client: Client<'_>,
    over_limit: OverLimit,
    signed: bool,
) -> Result<Comment, ApiError> {
    app.coach.check_model(input.model.as_deref())?;
    let (taken, address) = match client {
        Client::Address(ip) => (Some(app.limiter.charge(ip)), Some(ip)),
        Client::Seat(visit, ip) => (Some(app.limiter.charge_visit(visit.as_str())), ip),
        Client::Nobody => (None, None),
    };
    let charge = match (taken, over_limit) {
        (Some(Err(wait)), OverLimit::Refuse) => {
            return Err(ApiError::rate_limited("comments requested", wait))
        }
        (Some(Err(_)), OverLimit::OfflineComment) => {
            return Ok(app.coach.limited(&input, Limited::Client))
        }
        (Some(Ok(charge)), _) => Some(charge),
        (None, _) => None,
    };
    let key = ClientIp::budget_key(address.map(ClientIp));
    let comment = if signed {
        app.coach.comment(input, key).await
    } else {
        app.coach.comment_unsigned(input, key).await
    };
    if let Some(charge) = charge {
        charge.keep();
    }
    Ok(comment)
}

fn header(headers: &HeaderMap, name: axum::http::HeaderName) -> Option<&str> {
    headers
        .get(name)
        .and_then(|v: &HeaderValue| v.to_str().ok())
}

/// `GET /error?error=…&tentativas=…&weight=…&bias=…&lang=…&model=…&format=…`.
pub async fn get(
    State(app): State<AppState>,
    client: Option<Extension<ClientIp>>,
    RawQuery(query): RawQuery,
    request: Request,
) -> Response {
    let headers = request.headers();
    let query = query.unwrap_or_default();
    // Measured before any of it is decoded (its `format` is not read either:
    // the refusal takes the form `Accept` asks for).
    if query.len() > MAX_QUERY {
        let refusal = FieldError::new("query", format!("longer than {MAX_QUERY} bytes"));
        return ApiError::from(refusal).respond(Format::accepted(header(headers, ACCEPT)));
    }
    // Borrowed from the query unless a pair needs decoding.
    let pairs: Vec<_> = form_urlencoded::parse(query.as_bytes()).collect();
    let asked = pairs
        .iter()
        .find(|(k, _)| k == "format")
        .map(|(_, v)| v.as_ref());
    let format = match Format::choose(asked, header(headers, ACCEPT)) {
        Ok(format) => format,
        // A bad `format`: refused in the form the `Accept` header asks for.
        Err(e) => return ApiError::from(e).respond(Format::accepted(header(headers, ACCEPT))),
    };
    let accept_language = header(headers, ACCEPT_LANGUAGE);
    let comment = match CoachInput::from_query(&pairs, accept_language, app.default_lang) {
        Ok(input) => {
            let client = client.map_or(Client::Nobody, |Extension(ClientIp(ip))| {
                Client::Address(ip)
            });
            // Plain text carries no id: nothing to sign.
            let signed = matches!(format, Format::Json);
            answer(&app, input, client, OverLimit::Refuse, signed).await
        }
        Err(e) => Err(e.into()),
    };
    match (format, comment) {
        (Format::Json, Ok(comment)) => Json(comment).into_response(),
        (Format::Text, Ok(comment)) => (
            [(
                CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            )],
            comment.comment,
        )
            .into_response(),
        (format, Err(e)) => e.respond(format),
    }
}

/// `POST /api/comment`'s body: the attempt, its earlier errors (oldest
/// first), the point (`weight` and `bias`, both or neither; in `lesson` 2,
/// `w1`, `w2` and `b`, all or none), the language,
/// and for the insights the page's `visit` id and the attempt's number
/// (default: the earlier errors + 1). Other fields are ignored.
#[derive(Debug, Deserialize)]
pub struct CommentBody {
    error: f64,
    #[serde(default)]
    attempts: Vec<f64>,
    #[serde(default)]
    weight: Option<f64>,
    #[serde(default)]
    bias: Option<f64>,
    #[serde(default)]
    lesson: Option<u8>,
    #[serde(default)]
    w1: Option<f64>,
    #[serde(default)]
    w2: Option<f64>,
    #[serde(default)]
    b: Option<f64>,
    #[serde(default)]
    lang: Option<String>,
    #[serde(default)]
    visit: Option<String>,
    #[serde(default)]
    attempt: Option<u32>,
}

impl JsonBody for CommentBody {
    const FIELDS: &'static [&'static str] = &[
        "error", "attempts", "weight", "bias", "lesson", "w1", "w2", "b", "lang", "visit",
        "attempt",
    ];
    const LIMIT: usize = MAX_BODY;
}

/// The first field a body gives that belongs to the other lesson.
fn lesson_fields(lesson: Which, one: bool, two: bool) -> Option<&'static str> {
    match lesson {
        Which::One if two => Some("w1"),
        Which::Two if one => Some("weight"),
        _ => None,
    }
}

/// `POST /api/comment`: the page's comment, and its attempt recorded (nothing
/// without `visit` and the point, with `DNT: 1` or `Sec-GPC: 1`, for a
/// comment answered over a limit, or past attempt 500: `insights::capture`).
pub async fn post(
    State(app): State<AppState>,
    client: Option<Extension<ClientIp>>,
    headers: HeaderMap,
    AppJson(body): AppJson<CommentBody>,
) -> Result<Json<Comment>, ApiError> {
    let lang = choose_lang(
        body.lang.as_deref(),
        header(&headers, ACCEPT_LANGUAGE),
        app.default_lang,
    )?;
    let lesson = parse_lesson(body.lesson.map(|n| n.to_string()).as_deref())?;
    let params = point(body.weight, body.bias)?;
    let two = point_two(body.w1, body.w2, body.b)?;
    if let Some(field) = lesson_fields(lesson, params.is_some(), two.is_some()) {
        return Err(FieldError::new(field, "belongs to the other lesson").into());
    }
    let asked = match lesson {
        Which::One => params.map(LessonPoint::One),
        Which::Two => two.map(LessonPoint::Two),
    };
    let recording = Recording::check(
        body.visit.as_deref(),
        body.attempt,
        body.error,
        body.attempts.len(),
        asked,
    )?;
    let input = match lesson {
        Which::One => CoachInput::new(body.error, body.attempts, params, None, lang)?,
        Which::Two => CoachInput::new_two(body.error, body.attempts, two, None, lang)?,
    };
    let address = client.map(|Extension(ClientIp(ip))| ip);
    let seated = recording
        .visit()
        .filter(|visit| app.rooms.touch(visit).is_some_and(|in_room| in_room.seated));
    let client = match (seated, address) {
        (Some(visit), ip) => Client::Seat(visit, ip),
        (None, Some(ip)) => Client::Address(ip),
        (None, None) => Client::Nobody,
    };
    let comment = answer(&app, input, client, OverLimit::OfflineComment, true).await?;
    recording.record(&comment, &headers, &app.recorder, &app.rooms);
    Ok(Json(comment))
}
