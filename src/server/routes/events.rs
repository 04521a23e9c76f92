//! `POST /insights/events`: the page's reports about its visit (issue 23),
//! a visit's start once and the tools it used in batches, sent with
//! `navigator.sendBeacon` (so `text/plain` bodies are read as JSON too):
//!
//! ```json
//! {"visit": "Zx8_Qm2-Lk9aBc3dEf4gHi", "lang": "en", "layout": "page",
//!  "width": 360, "room": "class-7b", "tools": ["map", "nudge"]}
//! ```
//!
//! `lang`, `layout` and `width` (with an optional `room`) make a visit's
//! start, all three or none; `tools` lists the tools used since the last
//! report; `"left": true` says the page is going away (its room seat is
//! free). Every field is checked (`insights::input`): a refused one
//! is a `400` `{"error", "field"}` naming it; a body over
//! [`MAX_EVENTS_BODY`] is a `413`; another content type a `415`.
//!
//! Two allowances per client, past which it gets `429` with `Retry-After`:
//! reports (three times the comment rate, four times its burst), and new
//! visits (`JAY_VISITS_PER_HOUR`, a third of it at once). A visit seated in a
//! class room (`insights::rooms`) is a client of its own for both,
//! whatever its address: a class behind one school address is not one
//! client. A start that names a room nobody created, or one that is full, is
//! recorded without the room.
//!
//! A good report answers `204`, also when nothing is recorded: with
//! `DNT: 1` or `Sec-GPC: 1`, or with `JAY_INSIGHTS=off`. Only the checked
//! values are kept: never the address, the user agent or a cookie.

use std::sync::Arc;

use axum::{
    body::Body,
    http::{
        header::{CONTENT_TYPE, RETRY_AFTER},
        HeaderMap, HeaderValue, StatusCode,
    },
    response::{IntoResponse, Response},
    routing::post,
    Extension, Json, Router,
};
use serde::Deserialize;
use serde_json::json;
use serde_path_to_error::Segment;

use crate::server::{
    config::Guard,
    headers::no_store,
    limits::{ClientIp, ClientLimiter},
};
use insights::{
    capture::opted_out, Event, FieldError, Minute, Recorder, Rooms, ToolsInput, VisitId, VisitInput,
};

/// The route.
pub const PATH: &str = "/insights/events";
/// The largest report accepted (a visit start and 64 tools fit in 2 KiB).
pub const MAX_EVENTS_BODY: usize = 4 * 1024;

/// The reports' route, recording through `recorder` into `rooms`, with its
/// own per-client allowances. The page's own (same-origin) route: no CORS.
pub fn insights_events<S: Clone + Send + Sync + 'static>(
    recorder: Recorder,
    rooms: Arc<Rooms>,
    guard: &Guard,
) -> Router<S> {
    let limits = admit::Limits {
        reports: Arc::new(ClientLimiter::new(
            guard.rate_per_min.saturating_mul(3),
            guard.rate_burst.saturating_mul(4),
        )),
        visits: Arc::new(ClientLimiter::per_hour(
            guard.visits_per_hour,
            guard.visits_per_hour.div_ceil(3),
        )),
    };
    Router::new()
        .route(PATH, post(events))
        .layer(no_store())
        .layer(Extension(recorder))
        .layer(Extension(rooms))
        .layer(Extension(limits))
}

mod admit;

/// The body as sent; checked into events by [`EventsBody::events`].
#[derive(Debug, Deserialize)]
struct EventsBody {
    visit: String,
    #[serde(default)]
    lang: Option<String>,
    #[serde(default)]
    layout: Option<String>,
    #[serde(default)]
    width: Option<u32>,
    #[serde(default)]
    room: Option<String>,
    #[serde(default)]
    tools: Vec<String>,
    #[serde(default)]
    left: bool,
}

impl EventsBody {
    /// The checked events, each at `now`.
    fn events(self, now: Minute) -> Result<Vec<Event>, FieldError> {
        let mut events = Vec::new();
        match (self.lang, self.layout, self.width) {
            (None, None, None) => {}
            (Some(lang), Some(layout), Some(width)) => {
                let start = VisitInput {
                    visit: self.visit.clone(),
                    lang,
                    layout,
                    width,
                    room: self.room,
                };
                events.push(Event::Visit(start.check(now)?));
            }
            (lang, layout, _) => {
                let missing = if lang.is_none() {
                    "lang"
                } else if layout.is_none() {
                    "layout"
                } else {
                    "width"
                };
                return Err(FieldError::new(
                    missing,
                    "required with a visit's start (lang, layout and width together)",
                ));
            }
        }
        let tools = ToolsInput {
            visit: self.visit,
            tools: self.tools,
        };
        // The visit id is checked here even when no tool came.
        events.extend(tools.check(now)?.into_iter().map(Event::Tool));
        if events.is_empty() && !self.left {
            return Err(FieldError::new(
                "tools",
                "nothing to record: send a visit's start (lang, layout, width) or tools",
            ));
        }
        Ok(events)
    }
}

/// A refusal: `{"error", "field"}` with its status.
fn refuse(status: StatusCode, field: Option<&str>, error: &str) -> Response {
    (status, Json(json!({ "error": error, "field": field }))).into_response()
}

async fn events(
    Extension(recorder): Extension<Recorder>,
    Extension(rooms): Extension<Arc<Rooms>>,
    Extension(limits): Extension<admit::Limits>,
    client: Option<Extension<ClientIp>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let json_or_text = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .is_none_or(|t| t == "application/json" || t == "text/plain");
    if !json_or_text {
        return refuse(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Some("content-type"),
            "must be application/json or text/plain (a JSON body)",
        );
    }
    let Ok(bytes) = axum::body::to_bytes(body, MAX_EVENTS_BODY).await else {
        return refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            Some("body"),
            &format!("the body is larger than {MAX_EVENTS_BODY} bytes"),
        );
    };
    let body = match decode(&bytes) {
        Ok(body) => body,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, Some(e.field), &e.to_string()),
    };
    let left = body.left;
    let mut events = match body.events(Minute::now()) {
        Ok(events) => events,
        Err(e) => return refuse(StatusCode::BAD_REQUEST, Some(e.field), &e.to_string()),
    };
    if opted_out(&headers) || !recorder.is_on() {
        return StatusCode::NO_CONTENT.into_response();
    }
    let address = client.map(|Extension(ClientIp(ip))| ip);
    let admission = admit::Admission {
        rooms: &rooms,
        limits: &limits,
        recorder: &recorder,
    };
    if let Err(seconds) = admission.admit(&mut events, address).await {
        let mut response = refuse(
            StatusCode::TOO_MANY_REQUESTS,
            None,
            &format!("too many reports or new visits from this address; retry in {seconds} s"),
        );
        response
            .headers_mut()
            .insert(RETRY_AFTER, HeaderValue::from(seconds));
        return response;
    }
    for event in events {
        recorder.record(event);
    }
    if left {
        if let Ok(visit) = VisitId::parse(visit_of(&bytes).unwrap_or_default()) {
            rooms.leave(&visit);
        }
    }
    StatusCode::NO_CONTENT.into_response()
}

/// The visit a body names (already checked by [`EventsBody::events`]).
fn visit_of(bytes: &[u8]) -> Option<&str> {
    #[derive(Deserialize)]
    struct Visit<'a> {
        #[serde(borrow)]
        visit: &'a str,
    }
    serde_json::from_slice::<Visit>(bytes).ok().map(|v| v.visit)
}

/// The body, or the field serde could not read.
fn decode(bytes: &[u8]) -> Result<EventsBody, FieldError> {
    const FIELDS: [&str; 6] = ["visit", "lang", "layout", "width", "room", "tools"];
    let mut json = serde_json::Deserializer::from_slice(bytes);
    let body = serde_path_to_error::deserialize(&mut json).map_err(|e| {
        let key = e.path().iter().find_map(|segment| match segment {
            Segment::Map { key } => Some(key.clone()),
            _ => None,
        });
        let message = e.inner().to_string();
        let named = key.or_else(|| {
            message
                .strip_prefix("missing field `")
                .and_then(|rest| rest.split_once('`'))
                .map(|(field, _)| field.to_string())
        });
        // Only the body's own names are echoed (a field is `&'static`).
        match named.and_then(|n| FIELDS.iter().find(|f| **f == n)) {
            Some(field) => FieldError::new(field, message),
            None => FieldError::new("body", format!("must be a JSON object: {message}")),
        }
    })?;
    json.end()
        .map_err(|e| FieldError::new("body", format!("must be one JSON object: {e}")))?;
    Ok(body)
}

#[cfg(test)]
mod tests;
