//! The room's live picture as data, shared by the page's first render and
//! `now.json`: each current visitor as a [`Dot`] on the page's own map, the
//! room's funnel as [`Rung`]s, and the count line, all in one [`Now`].
//!
//! A dot never carries the visit's id (whoever holds it could record
//! attempts as that visit): it carries a short [`Keys::key`], a keyed hash of
//! the id with a key drawn at random when the server starts, so one visitor's
//! dot keeps its key from one look to the next and nothing leads back to the
//! id. Everyone starts from the same point, so dots are nudged a few SVG
//! units apart (by bits of the same hash: a dot does not wander between
//! looks) and a crowd on one spot still counts as a crowd.

use std::hash::{BuildHasher, RandomState};

use serde::Serialize;

use insights::{
    report::{effort::Point, funnel::Funnel, room::RoomVisitor, Which},
    VisitId,
};
use lesson::{
    map::{MapView, PLOT_BOTTOM, PLOT_LEFT, PLOT_RIGHT, PLOT_TOP},
    neuron::Params,
    two_view::{map_xy, MAP_NEAR},
};
use vocabulary::{fill, format::grouped_in, Lang};

use crate::server::insights_pages::words::language;

/// How far, at most, a dot is nudged from its point on each axis (SVG units;
/// the plot is 296 × 244).
pub const SPREAD: f64 = 3.0;

/// The server's secret for the dots' keys (drawn once, at start).
#[derive(Debug, Default)]
pub struct Keys(RandomState);

impl Keys {
    pub fn new() -> Self {
        Self(RandomState::new())
    }

    fn hash(&self, visit: &VisitId) -> u64 {
        self.0.hash_one(visit.as_str())
    }

    /// A visit's short key: 8 hex digits of its keyed hash.
    pub fn key(&self, visit: &VisitId) -> String {
        format!("{:08x}", self.hash(visit) & 0xffff_ffff)
    }

    /// The visit's nudge on each axis, in `[-SPREAD, SPREAD]` (other bits
    /// of the same hash than the key's).
    fn nudge(&self, visit: &VisitId) -> (f64, f64) {
        let h = self.hash(visit);
        let unit = |bits: u64| (bits & 0xffff) as f64 / f64::from(u16::MAX) * 2.0 - 1.0;
        (unit(h >> 32) * SPREAD, unit(h >> 48) * SPREAD)
    }
}

/// One visitor who has tried, on the map.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Dot {
    /// Its key ([`Keys::key`]), never the visit's id.
    pub key: String,
    /// Where its latest try puts it, in the map's SVG units (inside the plot).
    pub x: f64,
    pub y: f64,
    /// Its attempts so far.
    pub attempts: u64,
    /// Whether it has reached the goal (drawn as a star).
    pub goal: bool,
}

/// The room's visitors, as the view shows them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picture {
    /// Those who have tried, by key.
    pub dots: Vec<Dot>,
    /// Every current visitor, tried or not.
    pub visitors: u64,
    /// Those who reached the goal.
    pub reached: u64,
    /// Those yet to try (not drawn).
    pub waiting: u64,
}

/// Two decimals, as the map's own coordinates are written.
fn rounded(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// `v` kept inside `[lo, hi]`, then moved by `d`, or by `-d` where `d`
/// would leave the range: visitors at the plot's edge (a wild point, or a
/// class all at weight 0) stay as far apart as those inside it, instead of
/// piling onto one spot of the edge.
fn nudged(v: f64, d: f64, lo: f64, hi: f64) -> f64 {
    let p = v.clamp(lo, hi);
    if (lo..=hi).contains(&(p + d)) {
        p + d
    } else {
        (p - d).clamp(lo, hi)
    }
}

/// The map a room's view draws its visitors on: lesson 1's landscape in
/// `view`, or lesson 2's map of the two weights near the goal (`/two`'s
/// "near the goal" view, stretched over the same plot).
#[derive(Clone, Copy, Debug)]
pub enum RoomMap {
    One(MapView),
    Two,
}

impl RoomMap {
    /// The map of `lesson` (lesson 1's whole landscape).
    pub fn of(lesson: Which) -> Self {
        match lesson {
            Which::One => RoomMap::One(MapView::full()),
            Which::Two => RoomMap::Two,
        }
    }

    pub fn lesson(self) -> Which {
        match self {
            RoomMap::One(_) => Which::One,
            RoomMap::Two => Which::Two,
        }
    }

    /// Where a point of its lesson is, in the plot's SVG units.
    pub fn to_svg(self, p: &Point) -> (f64, f64) {
        match self {
            RoomMap::One(view) => view.to_svg(Params::new(p.weight, p.bias)),
            RoomMap::Two => {
                let (x, y) = map_xy(p.weight, p.weight2);
                let [left, top, width, height] = MAP_NEAR;
                (
                    PLOT_LEFT + (x - left) / width * (PLOT_RIGHT - PLOT_LEFT),
                    PLOT_TOP + (y - top) / height * (PLOT_BOTTOM - PLOT_TOP),
                )
            }
        }
    }
}

/// The room's visitors as dots on `map` (those of its lesson).
pub fn picture(visitors: &[RoomVisitor], keys: &Keys, map: RoomMap) -> Picture {
    let mut dots: Vec<Dot> = visitors
        .iter()
        .filter_map(|v| {
            let p = v.latest.filter(|_| v.lesson == map.lesson())?;
            let (x, y) = map.to_svg(&p);
            let (dx, dy) = keys.nudge(&v.visit);
            Some(Dot {
                key: keys.key(&v.visit),
                x: rounded(nudged(x, dx, PLOT_LEFT, PLOT_RIGHT)),
                y: rounded(nudged(y, dy, PLOT_TOP, PLOT_BOTTOM)),
                attempts: v.attempts,
                goal: v.reached,
            })
        })
        .collect();
    dots.sort_by(|a, b| a.key.cmp(&b.key));
    let count = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
    Picture {
        visitors: count(visitors.len()),
        reached: count(visitors.iter().filter(|v| v.reached).count()),
        waiting: count(visitors.iter().filter(|v| v.latest.is_none()).count()),
        dots,
    }
}

/// One row of the funnel, its numbers written for the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rung {
    pub count: u64,
    /// The count, in the page's language.
    pub text: String,
    /// Its share of the visits, as a percentage in the page's language.
    pub share: String,
    /// The bar's length, 0 to 1.
    pub bar: f64,
}

/// The funnel's six rows: visits, tried, at or below 799, 600, 500, the goal.
pub fn rungs(funnel: &Funnel, lang: Lang) -> Vec<Rung> {
    let counts = [funnel.visits, funnel.attempted]
        .into_iter()
        .chain(funnel.at_or_below);
    counts
        .map(|count| {
            let bar = if funnel.visits == 0 {
                0.0
            } else {
                (count as f64 / funnel.visits as f64).min(1.0)
            };
            Rung {
                count,
                text: grouped_in(count as f64, 0, lang),
                share: format!("{}%", grouped_in(bar * 100.0, 0, lang)),
                bar: (bar * 1000.0).round() / 1000.0,
            }
        })
        .collect()
}

/// What `now.json` answers, and what the page first shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Now {
    pub room: String,
    pub visitors: u64,
    pub reached: u64,
    pub waiting: u64,
    /// The count line, in the page's language.
    pub summary: String,
    pub dots: Vec<Dot>,
    pub funnel: Vec<Rung>,
}

impl Now {
    pub fn new(room: &str, picture: Picture, funnel: &Funnel, lang: Lang) -> Self {
        let n = |v: u64| grouped_in(v as f64, 0, lang);
        let summary = fill(
            language(lang).room.count,
            &[
                ("visitors", &n(picture.visitors)),
                ("goal", &n(picture.reached)),
                ("waiting", &n(picture.waiting)),
            ],
        );
        Self {
            room: room.to_string(),
            visitors: picture.visitors,
            reached: picture.reached,
            waiting: picture.waiting,
            summary,
            dots: picture.dots,
            funnel: rungs(funnel, lang),
        }
    }
}
