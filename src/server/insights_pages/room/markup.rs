//! The room view's `<main>`: the lesson's own map (the very landscape a
//! visitor of `/` sees, `crate::page::landscape`; or `/two`'s map of the
//! two weights, `crate::page::two::figures::map_ground`) with a dot per
//! current visitor, the count line, and the room's funnel beside it; rendered from
//! `templates/room.html` (escaped, but for the map's markup and the script,
//! which are this crate's own strings).

use std::fmt::Write;

use minijinja::context;
use serde::Serialize;

use super::live::Now;
use crate::page::two::{figures::map_ground, words::two_words};
use crate::server::insights_pages::words::{language, lesson::figure};
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
use lesson::{
    map::{MapView, HEIGHT, PLOT_BOTTOM, PLOT_LEFT, PLOT_RIGHT, PLOT_TOP},
    two_view::MAP_NEAR,
};
use vocabulary::{fill, Lang};

/// The script that keeps the view live (inline, under the render's nonce).
pub const SCRIPT: &str = include_str!("live.js");

/// The funnel's hours, as its heading says.
pub const FUNNEL_HOURS: i64 = 3;

/// What one render shows.
pub struct View<'a> {
    pub lang: Lang,
    /// The lesson the room is watched in.
    pub lesson: Which,
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

/// Lesson 2's map under the dots: `/two`'s, near the goal, stretched over
/// the plot (as `super::live::RoomMap::Two` places the dots), clipped to it,
/// with the near view's ends on each axis and the axes' names.
fn map_two(lang: Lang) -> String {
    let (t, w) = (texts(lang), two_words(lang));
    let (x, y) = (PLOT_LEFT, PLOT_TOP);
    let (width, height) = (PLOT_RIGHT - PLOT_LEFT, PLOT_BOTTOM - PLOT_TOP);
    let [vx, vy, vw, vh] = MAP_NEAR;
    let mut s = format!(
        r#"<defs><clipPath id="landscape-plot"><rect x="{x}" y="{y}" width="{width}" height="{height}"></rect></clipPath></defs><svg x="{x}" y="{y}" width="{width}" height="{height}" viewBox="{vx} {vy} {vw} {vh}" preserveAspectRatio="none">{}</svg><rect class="plot-frame" x="{x}" y="{y}" width="{width}" height="{height}"></rect><g class="axis">"#,
        map_ground()
    );
    // The view's ends: w1 from 0.05 to 0.30 across, w2 from 60 down to −60.
    let (w1, w2) = ((vx / 1000.0, (vx + vw) / 1000.0), (-vy, -(vy + vh)));
    let below = PLOT_BOTTOM + 18.0;
    let _ = write!(
        s,
        r#"<text x="{PLOT_LEFT}" y="{below}" text-anchor="start">{}</text><text x="{PLOT_RIGHT}" y="{below}" text-anchor="end">{}</text><text x="{}" y="{}" text-anchor="end">{}</text><text x="{}" y="{PLOT_BOTTOM}" text-anchor="end">{}</text></g><text class="axis-label" x="{}" y="{}" text-anchor="middle">{}</text><text class="axis-label" text-anchor="middle" transform="translate(13 {}) rotate(-90)">{}</text>"#,
        t.plain(w1.0, 2),
        t.plain(w1.1, 2),
        PLOT_LEFT - 8.0,
        PLOT_TOP + 10.0,
        t.plain(w2.0, 0),
        PLOT_LEFT - 8.0,
        t.plain(w2.1, 0),
        (PLOT_LEFT + PLOT_RIGHT) / 2.0,
        HEIGHT - 4.0,
        w.w1,
        (PLOT_TOP + PLOT_BOTTOM) / 2.0,
        w.w2
    );
    s
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
    let rungs = lessons::rungs(view.lesson).map(Some);
    let goal = Some(lessons::goal(view.lesson));
    let thresholds = [None, None].into_iter().chain(rungs).chain([goal]);
    let mut labels = w.rows;
    if view.lesson == Which::Two {
        labels[5] = w.goal_below;
    }
    let rows: Vec<Row> = labels
        .iter()
        .zip(thresholds)
        .zip(&view.now.funnel)
        .map(|((label, v), rung)| Row {
            label: match v {
                Some(v) => fill(label, &[("v", &figure(t, v))]),
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
            join => match view.lesson {
                Which::One => format!("/?room={room}"),
                Which::Two => format!("/two?room={room}"),
            },
            now_url => match view.lesson {
                Which::One => format!("/insights/room/{room}/now.json?lang={}", view.lang.code()),
                Which::Two => format!("/insights/room/{room}/now.json?lang={}&lesson=2", view.lang.code()),
            },
            now => view.now,
            off => view.off,
            stale => view.stale,
            star => star_path(0.0, 0.0, 8.0),
            map => match view.lesson {
                Which::One => map(view.lang),
                Which::Two => map_two(view.lang),
            },
            island => match view.lesson {
                Which::One => t.server.map_island,
                Which::Two => two_words(view.lang).map_island,
            },
            funnel_title => fill(w.funnel, &[("hours", &t.plain(FUNNEL_HOURS as f64, 0))]),
            rows => rows,
            nonce => view.nonce,
            script => SCRIPT,
        },
    )
}
