//! A class room's live view: the page a
//! teacher projects while learners open `/?room=CODE` (or the embed with
//! `?room=CODE`), whose visits the head script tags with the room; with
//! `?lesson=2`, the view of lesson 2, whose learners open `/two?room=CODE`.
//!
//! - `GET /insights/room/{code}`: the document, rendered by the server: the
//!   lesson's own map with a dot per current visitor of the lesson at their
//!   latest try (a star once they reached the goal), the count line, and the
//!   room's funnel of the lesson over the last [`FUNNEL_HOURS`] hours beside
//!   it (under it on a phone);
//! - `GET /insights/room/{code}/now.json`: the same picture as data
//!   ([`live::Now`]), which the page's small script asks for every 3 s to
//!   move the dots (polling: nothing to keep open through a Space's proxy).
//!
//! "Current" is [`insights::rooms::CURRENT`]: the room's seated visits active in the
//! last 20 minutes, the most recently active first, at most the room's size
//! ([`Rooms::current`]); their points come from the store by id
//! ([`Store::room_visitors`]). No names anywhere: a dot's key
//! is a keyed hash of its visit's id, never the id ([`live::Keys`]). A code
//! that is not a [`RoomCode`], or a lesson that is not 1 or 2, is a `400`
//! naming the field (one line of text for the page, `{"error","field"}` for
//! `now.json`); a room nobody is in is
//! an empty map (`200`). The caller puts both routes behind the pages'
//! [`super::Access`].

mod live;
mod markup;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use axum::{
    extract::{Path, RawQuery, State},
    http::{header::CACHE_CONTROL, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
    routing::get,
    Json, Router,
};
use rand::RngCore;
use serde_json::json;

pub use live::{Dot, Keys, Now};
pub use markup::FUNNEL_HOURS;

use self::{
    live::{picture, Picture, RoomMap},
    markup::View,
};
use super::{pairs, shell, text};
use crate::page::app::StylesheetHref;
use insights::{
    report::{funnel::Funnel, Which},
    store::Store,
    Filter, Minute, RoomCode, Rooms, StoreError,
};
use vocabulary::{FieldError, Lang};

/// What the handlers share.
#[derive(Clone)]
struct Ctx {
    /// `None`: recording is off.
    store: Option<Arc<Store>>,
    rooms: Arc<Rooms>,
    keys: Arc<Keys>,
    stylesheet: Arc<str>,
}

/// The room view's two routes; `store` is `None` when recording is off (the
/// room then stays empty, and the page says why).
pub fn routes<S: Clone + Send + Sync + 'static>(
    store: Option<Arc<Store>>,
    rooms: Arc<Rooms>,
    stylesheet: &StylesheetHref,
) -> Router<S> {
    let ctx = Ctx {
        store,
        rooms,
        keys: Arc::new(Keys::new()),
        stylesheet: stylesheet.0.as_str().into(),
    };
    Router::new()
        .route("/insights/room/{code}", get(page))
        .route("/insights/room/{code}/now.json", get(now_json))
        .with_state(ctx)
}

/// The room and lesson a request names (a bad one names its field).
fn asked(code: &str, query: &[(String, String)]) -> Result<(RoomCode, Which), FieldError> {
    let lesson = query
        .iter()
        .find(|(k, _)| k == "lesson")
        .map(|(_, v)| v.as_str());
    Ok((RoomCode::parse(code)?, super::filter::lesson_param(lesson)?))
}

/// The room's picture now in `lesson`: its current visitors and its funnel.
async fn look(ctx: &Ctx, room: &RoomCode, lang: Lang, lesson: Which) -> Result<Now, StoreError> {
    let Some(store) = &ctx.store else {
        return Ok(empty(room, lang));
    };
    let now = Minute::now();
    let (current, all) = ctx.rooms.current(room);
    let visitors = store.room_visitors(&current).await?;
    let filter = Filter {
        lesson,
        // The room's starts are kept to the hour: from the hour it was then.
        from: Minute((now.0 - FUNNEL_HOURS * 60).div_euclid(60) * 60),
        to: Minute(now.0 + 1),
        lang: None,
        room: Some(room.clone()),
    };
    let funnel = store.funnel(&filter).await?;
    let mut dots = picture(&visitors, &ctx.keys, RoomMap::of(lesson));
    // Those seated but not stored yet are in the room too, yet to try.
    let all = u64::try_from(all).unwrap_or(u64::MAX);
    dots.waiting += all.saturating_sub(dots.visitors);
    dots.visitors = all.max(dots.visitors);
    Ok(Now::new(room.as_str(), dots, &funnel, lang))
}

/// An empty room.
fn empty(room: &RoomCode, lang: Lang) -> Now {
    Now::new(room.as_str(), Picture::default(), &Funnel::default(), lang)
}

/// The page's language: `?lang=`, else `Accept-Language`, else English.
fn lang_of(query: &[(String, String)], headers: &HeaderMap) -> Lang {
    let asked = query
        .iter()
        .find(|(k, _)| k == "lang")
        .map(|(_, v)| v.as_str());
    shell::page_lang(asked, headers)
}

/// A fresh CSP nonce: 128 random bits in hex.
fn nonce() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `Cache-Control: no-store` (the view is live; no cache may keep it).
fn unstored(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

async fn page(
    State(ctx): State<Ctx>,
    Path(code): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let query = pairs(query.as_deref());
    let (room, lesson) = match asked(&code, &query) {
        Ok(asked) => asked,
        Err(e) => return text(StatusCode::BAD_REQUEST, e.to_string()),
    };
    let lang = lang_of(&query, &headers);
    let (status, now, stale) = match look(&ctx, &room, lang, lesson).await {
        Ok(now) => (StatusCode::OK, now, false),
        Err(e) => {
            tracing::warn!("room view: the insights database did not answer: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, empty(&room, lang), true)
        }
    };
    let nonce = nonce();
    let view = View {
        lang,
        lesson,
        room: &room,
        now: &now,
        off: ctx.store.is_none(),
        stale,
        nonce: &nonce,
    };
    let title = markup::title(lang, &room);
    let path = format!("/insights/room/{}", room.as_str());
    let document = markup::main(&view).and_then(|main| {
        shell::document(
            &shell::Head {
                lang,
                title: &title,
                stylesheet: &ctx.stylesheet,
                path: &path,
                query: &query,
                class: "room-view",
            },
            &main,
        )
    });
    unstored(shell::html(status, document, Some(&nonce)))
}

async fn now_json(
    State(ctx): State<Ctx>,
    Path(code): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let query = pairs(query.as_deref());
    let (room, lesson) = match asked(&code, &query) {
        Ok(asked) => asked,
        Err(e) => {
            let body = json!({ "error": e.to_string(), "field": e.field });
            return unstored((StatusCode::BAD_REQUEST, Json(body)).into_response());
        }
    };
    let lang = lang_of(&query, &headers);
    match look(&ctx, &room, lang, lesson).await {
        Ok(now) => unstored(Json(now).into_response()),
        Err(e) => {
            tracing::warn!("room view: the insights database did not answer: {e}");
            let body = json!({ "error": "the insights database is not answering", "field": null });
            unstored((StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response())
        }
    }
}
