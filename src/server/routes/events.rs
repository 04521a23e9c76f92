//! `POST /insights/events`: the page's reports about its visit,
//! a visit's start once and the tools it used in batches, sent with
//! `navigator.sendBeacon` (so `text/plain` bodies are read as JSON too):
//!
//! ```json
//! {"visit": "Zx8_Qm2-Lk9aBc3dEf4gHi", "lang": "en", "layout": "page",
//!  "width": 360, "room": "class-7b", "tools": ["map", "nudge"]}
//! ```
//!
//! `lang`, `layout` and `width` (with an optional `room`, and `lesson`: 1,
//! the default, or 2 for `/two`) make a visit's start, all three or none; `tools` lists the tools used since the last
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

use axum::{
    extract::State,
    http::{header::CONTENT_TYPE, HeaderMap, StatusCode},
    Extension,
};
use serde::Deserialize;

use crate::server::{
    error::ApiError,
    json::{AppJson, JsonBody},
    limits::ClientIp,
    state::AppState,
};
use insights::{capture::opted_out, Event, FieldError, Minute, ToolsInput, VisitId, VisitInput};

/// The route.
pub const PATH: &str = "/insights/events";
/// The largest report accepted (a visit start and 64 tools fit in 2 KiB).
pub const MAX_EVENTS_BODY: usize = 4 * 1024;

mod admit;

/// The body as sent; checked into events by [`EventsBody::events`].
#[derive(Debug, Deserialize)]
pub struct EventsBody {
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
    lesson: Option<u32>,
    #[serde(default)]
    tools: Vec<String>,
    #[serde(default)]
    left: bool,
}

impl JsonBody for EventsBody {
    const FIELDS: &'static [&'static str] = &[
        "visit", "lang", "layout", "width", "room", "lesson", "tools", "left",
    ];
    const LIMIT: usize = MAX_EVENTS_BODY;
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
                    lesson: self.lesson,
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

/// Whether a body of `headers`' type is read: JSON, or `text/plain`
/// (`navigator.sendBeacon`'s), or none named.
fn json_or_text(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .is_none_or(|t| t == "application/json" || t == "text/plain")
}

pub async fn post(
    State(app): State<AppState>,
    client: Option<Extension<ClientIp>>,
    headers: HeaderMap,
    body: Result<AppJson<EventsBody>, ApiError>,
) -> Result<StatusCode, ApiError> {
    // The type is judged before the body (a wrong type is a 415 whatever it holds).
    if !json_or_text(&headers) {
        return Err(ApiError::UnsupportedMediaType(
            "application/json or text/plain (a JSON body)",
        ));
    }
    let AppJson(body) = body?;
    let left = body.left.then(|| body.visit.clone());
    let mut events = body.events(Minute::now())?;
    if opted_out(&headers) || !app.recorder.is_on() {
        return Ok(StatusCode::NO_CONTENT);
    }
    let address = client.map(|Extension(ClientIp(ip))| ip);
    let admission = admit::Admission {
        rooms: &app.rooms,
        limits: &app.report_limits,
        recorder: &app.recorder,
    };
    if let Err(seconds) = admission.admit(&mut events, address).await {
        return Err(ApiError::RateLimited {
            what: "reports or new visits",
            retry_after_s: seconds,
        });
    }
    for event in events {
        app.recorder.record(event);
    }
    if let Some(Ok(visit)) = left.as_deref().map(VisitId::parse) {
        app.rooms.leave(&visit);
    }
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests;
