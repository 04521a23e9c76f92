//! The room view's `<main>`: the page's own map (the very landscape a
//! visitor sees, `crate::page::landscape`) with a dot per current visitor,
//! the count line, and the room's funnel beside it; rendered from
//! `templates/room.html` (escaped, but for the map's markup and the script,
//! which are this crate's own strings).

use minijinja::context;
use serde::Serialize;

use super::live::Now;
use crate::server::insights_pages::words::language;
use crate::{
    page::{
        i18n::texts,
        landscape::{
            legend::{goal_label, island},
            markup::{background, star_path},
        },
    },
    server::insights_pages::shell,
};
use insights::{lessons, report::Which, RoomCode};
use lesson::map::MapView;
use vocabulary::{fill, Lang};

/// The script that keeps the view live (inline, under the render's nonce).
pub const SCRIPT: &str = include_str!("live.js");

/// The funnel's hours, as its heading says.
pub const FUNNEL_HOURS: i64 = 3;

/// What one render shows.
pub struct View<'a> {
    pub lang: Lang,
    pub room: &'a RoomCode,
    pub now: &'a Now,
    /// Recording is off: the room stays empty, and the page says why.
    pub off: bool,
    /// The database did not answer: the page says it is trying again.
    pub stale: bool,
    /// The CSP nonce the script carries.
    pub nonce: &'a str,
}

/// One funnel row as the template writes it.
#[derive(Serialize)]
struct Row {
    label: String,
    text: String,
    share: String,
    /// The bar's length, in its 100-unit box.
    width: f64,
}

/// The map's layers under the dots: the colour grid and contours, the
/// goal's label, the island.
fn map(lang: Lang) -> String {
    let t = texts(lang);
    let view = MapView::full();
    let mut s = background(t, &view);
    s.push_str(&goal_label(t, &view));
    s.push_str(&island(&view));
    s
}

/// The document's title and the page's heading.
pub fn title(lang: Lang, room: &RoomCode) -> String {
    fill(language(lang).room.title, &[("room", room.as_str())])
}

/// The `<main>` markup of `view`.
pub fn main(view: &View<'_>) -> Result<String, minijinja::Error> {
    let w = language(view.lang).room;
    let room = view.room.as_str();
    let t = texts(view.lang);
    let rungs = lessons::rungs(Which::One).map(Some);
    let goal = Some(lessons::goal(Which::One));
    let thresholds = [None, None].into_iter().chain(rungs).chain([goal]);
    let rows: Vec<Row> = w
        .rows
        .iter()
        .zip(thresholds)
        .zip(&view.now.funnel)
        .map(|((label, v), rung)| Row {
            label: match v {
                Some(v) => fill(label, &[("v", &t.plain(v, 0))]),
                None => (*label).to_string(),
            },
            text: rung.text.clone(),
            share: rung.share.clone(),
            width: (rung.bar * 1000.0).round() / 10.0,
        })
        .collect();
    shell::render(
        "room.html",
        context! {
            words => context! {
                lead => w.lead, join => w.join, off => w.off, stale => w.stale,
                map_label => w.map_label, dot_trying => w.dot_trying, dot_goal => w.dot_goal,
                step => w.step, visitors => w.visitors, share => w.share,
            },
            heading => fill(w.heading, &[("room", room)]),
            join => format!("/?room={room}"),
            now_url => format!("/insights/room/{room}/now.json?lang={}", view.lang.code()),
            now => view.now,
            off => view.off,
            stale => view.stale,
            star => star_path(0.0, 0.0, 8.0),
            map => map(view.lang),
            island => t.server.map_island,
            funnel_title => fill(w.funnel, &[("hours", &t.plain(FUNNEL_HOURS as f64, 0))]),
            rows => rows,
            nonce => view.nonce,
            script => SCRIPT,
        },
    )
}
