//! The insights pages, rendered by the server with no WASM:
//! `GET /insights`, what the recorded visits show for a period, a language
//! and a room ([`filter`]), and `GET /insights/<table>.csv`, each of its
//! tables as a CSV file for the same filter.
//!
//! - [`access`]: private to this machine unless the operator sets
//!   `JAY_INSIGHTS_TOKEN` (bearer or HTTP Basic), for every insights page;
//! - [`shell`]: the HTML document around a page, its language and its
//!   Content-Security-Policy (shared with a room's live view);
//! - [`filter`]: the form's fields, parsed at the edge (a bad one is a `400`
//!   naming it);
//! - [`data`]: the reports read from the store, and what is summed up here;
//! - [`tables`] (of [`table`]s), [`charts`], [`page`]: the page, in
//!   [`words`] of three languages;
//! - [`room`]: a class room's live view, `/insights/room/{code}`, and
//!   [`new_room`], `POST /insights/rooms`, which creates one;
//! - [`notice`]: short pages of sentences (the private page, a new room);
//! - [`style`]: their own stylesheet, `/insights/style.css`, public.
//!
//! With recording off (no store) the page says so; a database that does not
//! answer is a `503` page that says so.

pub mod access;
pub mod cells;
pub mod charts;

pub mod filter;
pub mod map_two;
pub mod new_room;
pub mod notice;
pub mod page;
pub mod room;
pub mod shell;
pub mod style;
pub mod table;
pub mod tables;
pub mod words;

use std::sync::Arc;

use axum::{
    extract::{Path, RawQuery, State},
    http::{
        header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE},
        HeaderMap, HeaderValue, StatusCode,
    },
    response::{IntoResponse, Response},
    routing::{get, post},
    Router,
};

pub use access::Access;

use self::{filter::Choice, page::Content, tables::Tables, words::words};
use crate::page::app::StylesheetHref;
use insights::report::overview::Data;
use insights::{
    store::Store,
    values::{FieldError, Minute},
    Rooms,
};
use vocabulary::Lang;

/// What the handlers share.
#[derive(Clone)]
struct Ctx {
    /// `None`: recording is off.
    store: Option<Arc<Store>>,
    stylesheet: Arc<str>,
    /// Pages loading at once at most ([`LOADS`]; the others wait their turn).
    loads: Arc<tokio::sync::Semaphore>,
}

/// How many `/insights` pages (or CSV files) read the store at once.
const LOADS: usize = 2;

/// The insights pages, behind `access`; `store` is `None` when recording is
/// off (the page then says so); `rooms` the class rooms; `trusted_hops` the
/// proxies in front, whose scheme a new room's link takes.
pub fn routes<S: Clone + Send + Sync + 'static>(
    store: Option<Arc<Store>>,
    rooms: Arc<Rooms>,
    access: Access,
    stylesheet: &StylesheetHref,
    trusted_hops: usize,
) -> Router<S> {
    let live = room::routes(store.clone(), rooms.clone(), stylesheet);
    let stylesheet: Arc<str> = stylesheet.0.as_str().into();
    let ctx = Ctx {
        store,
        stylesheet: stylesheet.clone(),
        loads: Arc::new(tokio::sync::Semaphore::new(LOADS)),
    };
    let create = new_room::Ctx {
        rooms,
        stylesheet: stylesheet.clone(),
        trusted_hops,
    };
    let router = Router::new()
        .route("/insights", get(overview))
        .route("/insights/{file}", get(csv_file))
        .with_state(ctx)
        .route("/insights/rooms", post(new_room::create).with_state(create))
        .merge(live);
    access.protect(router, stylesheet).merge(style::routes())
}

/// A query string's pairs.
fn pairs(query: Option<&str>) -> Vec<(String, String)> {
    form_urlencoded::parse(query.unwrap_or_default().as_bytes())
        .into_owned()
        .collect()
}

/// A refusal or a notice in one line of text.
fn text(status: StatusCode, line: String) -> Response {
    (
        status,
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            ),
            (CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        format!("{line}\n"),
    )
        .into_response()
}

/// The `400` for a bad filter field: one line naming it.
fn refuse(e: &FieldError) -> Response {
    text(StatusCode::BAD_REQUEST, e.to_string())
}

/// The reports for `choice` now, or the store's error (logged), after
/// waiting for a turn ([`LOADS`] at once; a page that waited past
/// [`insights::report::overview::REPORT_TIME`] shows every section as too slow).
async fn load(ctx: &Ctx, store: &Store, choice: &Choice, now: Minute) -> Option<Data> {
    let Ok(Ok(_turn)) =
        tokio::time::timeout(insights::report::overview::REPORT_TIME, ctx.loads.acquire()).await
    else {
        return Some(Data::all_slow());
    };
    match Data::load(store, &choice.filter(now)).await {
        Ok(data) => Some(data),
        Err(e) => {
            tracing::warn!("/insights: {e}");
            None
        }
    }
}

/// `GET /insights`.
async fn overview(
    State(ctx): State<Ctx>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let query = pairs(query.as_deref());
    let asked = query
        .iter()
        .find(|(k, _)| k == "lang")
        .map(|(_, v)| v.as_str());
    let lang = shell::page_lang(asked, &headers);
    let choice = match Choice::parse(&query) {
        Ok(choice) => choice,
        Err(e) => return refuse(&e),
    };
    let now = Minute::now();
    let data = match &ctx.store {
        Some(store) => Some(load(&ctx, store, &choice, now).await),
        None => None,
    };
    let (status, content) = match &data {
        None => (StatusCode::OK, Content::Off),
        Some(None) => (StatusCode::SERVICE_UNAVAILABLE, Content::Unavailable),
        Some(Some(data)) => (StatusCode::OK, Content::Data(data)),
    };
    let head = shell::Head {
        lang,
        title: words(lang).title,
        stylesheet: &ctx.stylesheet,
        path: "/insights",
        query: &query,
        class: "insights-overview",
    };
    let document =
        page::main(lang, &choice, now, content).and_then(|main| shell::document(&head, &main));
    shell::html(status, document, None)
}

/// `GET /insights/<table>.csv`: one of [`Tables::NAMES`], for the filter.
async fn csv_file(
    State(ctx): State<Ctx>,
    Path(file): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let Some(name) = file
        .strip_suffix(".csv")
        .filter(|n| Tables::NAMES.contains(n))
    else {
        return text(
            StatusCode::NOT_FOUND,
            format!(
                "no such table; the tables are {}",
                Tables::NAMES.map(|n| format!("{n}.csv")).join(", ")
            ),
        );
    };
    let choice = match Choice::parse(&pairs(query.as_deref())) {
        Ok(choice) => choice,
        Err(e) => return refuse(&e),
    };
    let Some(store) = &ctx.store else {
        return text(
            StatusCode::NOT_FOUND,
            "recording is off on this server (JAY_INSIGHTS=off): there are no tables".into(),
        );
    };
    let Some(data) = load(&ctx, store, &choice, Minute::now()).await else {
        return text(
            StatusCode::SERVICE_UNAVAILABLE,
            "the insights database is not answering; try again in a minute".into(),
        );
    };
    if Tables::SECTIONS
        .iter()
        .any(|&(table, section)| table == name && data.is_slow(section))
    {
        return text(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("the {name} table took too long to compute; try a shorter period"),
        );
    }
    let tables = Tables::of(&data, Lang::En);
    let body = match tables.named(name).map(|t| t.csv()) {
        Some(Ok(body)) => body,
        _ => {
            tracing::error!("/insights/{name}.csv not written");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let disposition = format!("attachment; filename=\"jay-insights-{name}.csv\"");
    (
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_static("text/csv; charset=utf-8"),
            ),
            (CACHE_CONTROL, HeaderValue::from_static("no-store")),
            (
                CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition)
                    .unwrap_or(HeaderValue::from_static("attachment")),
            ),
        ],
        body,
    )
        .into_response()
}
