//! The insights pages (issue 23), rendered by the server with no WASM:
//! `GET /insights`, what the recorded visits show for a period, a language
//! and a room, and each of its tables as a CSV file.
//!
//! - [`access`]: public unless the operator sets `JAY_INSIGHTS_TOKEN`
//!   (bearer or HTTP Basic), for every insights page;
//! - [`shell`]: the HTML document around a page, its language and its
//!   Content-Security-Policy (shared with a room's live view);
//! - [`room`]: a class room's live view, `/insights/room/{code}`.

pub mod access;
pub mod room;
pub mod shell;

use std::sync::Arc;

use axum::{
    extract::{RawQuery, State},
    http::{HeaderMap, StatusCode},
    response::Response,
    routing::get,
    Router,
};
use minijinja::context;

pub use access::Access;

use super::store::Store;
use crate::page::app::StylesheetHref;

/// What the handlers share.
#[derive(Clone)]
struct Ctx {
    /// `None`: recording is off.
    store: Option<Arc<Store>>,
    stylesheet: Arc<str>,
}

/// The insights pages, behind `access`; `store` is `None` when recording is
/// off (the page then says so).
pub fn routes<S: Clone + Send + Sync + 'static>(
    store: Option<Arc<Store>>,
    access: Access,
    stylesheet: &StylesheetHref,
) -> Router<S> {
    let rooms = room::routes(store.clone(), stylesheet);
    let ctx = Ctx {
        store,
        stylesheet: stylesheet.0.as_str().into(),
    };
    access.protect(
        Router::new()
            .route("/insights", get(page))
            .with_state(ctx)
            .merge(rooms),
    )
}

/// Parses a query string into its pairs.
fn pairs(query: Option<&str>) -> Vec<(String, String)> {
    form_urlencoded::parse(query.unwrap_or_default().as_bytes())
        .into_owned()
        .collect()
}

async fn page(State(ctx): State<Ctx>, RawQuery(query): RawQuery, headers: HeaderMap) -> Response {
    let query = pairs(query.as_deref());
    let asked = query
        .iter()
        .find(|(k, _)| k == "lang")
        .map(|(_, v)| v.as_str());
    let lang = shell::page_lang(asked, &headers);
    let title = "Insights";
    let main = shell::render(
        "insights.html",
        context! { w => context! { title }, on => ctx.store.is_some() },
    );
    let document = main.and_then(|main| {
        shell::document(
            &shell::Head {
                lang,
                title,
                stylesheet: &ctx.stylesheet,
                path: "/insights",
                query: &query,
                class: "insights-overview",
            },
            &main,
        )
    });
    shell::html(StatusCode::OK, document, None)
}
