//! The page's plots as inline SVG strings: the funnel's bars, a histogram
//! with its median, the visits per day, and the map of where learners stop
//! (drawn over the main page's own error landscape, [`map`]).
//!
//! Each scales with its `viewBox` (CSS sets the width), uses presentation
//! attributes and classes only (the page's CSP has no inline styles), and
//! is `aria-hidden`: the table beside it holds the same numbers in words.
//! Only numbers and the page's own words go in (escaped all the same).

use std::fmt::Write;

use crate::page::{
    i18n::Texts,
    landscape::{
        legend::{goal_label, island},
        markup::background,
    },
};
use insights::report::{
    effort::{marks, Point, Points},
    funnel::Day,
};
use lesson::{
    map::{coord, MapView, HEIGHT, WIDTH},
    neuron::Params,
};

/// The width of every chart's `viewBox` (a phone's width in CSS pixels).
const W: f64 = 360.0;

/// `text` for an SVG text node.
fn esc(text: &str) -> std::borrow::Cow<'_, str> {
    html_escape::encode_text(text)
}

fn open(class: &str, height: f64) -> String {
    format!(
        r#"<svg class="insights-chart {class}" viewBox="0 0 {W} {}" aria-hidden="true" focusable="false">"#,
        coord(height)
    )
}

/// The funnel: one row per step, its label above a bar as long as its share
/// of all visits, the count and share at the bar's end.
pub fn funnel(steps: &[(&str, u64, String)]) -> String {
    const ROW: f64 = 38.0;
    const LEFT: f64 = 4.0;
    const BAR: f64 = 230.0;
    let first = steps.first().map_or(0, |s| s.1).max(1) as f64;
    let mut s = open("funnel-chart", ROW * steps.len() as f64 + 4.0);
    for (i, (label, n, shown)) in steps.iter().enumerate() {
        let y = ROW * i as f64;
        let width = (*n as f64 / first * BAR).max(if *n > 0 { 2.0 } else { 0.0 });
        let _ = write!(
            s,
            r#"<text class="step" x="{LEFT}" y="{}">{}</text><rect class="bar{}" x="{LEFT}" y="{}" width="{}" height="14" rx="2"></rect><text class="count" x="{}" y="{}">{}</text>"#,
            coord(y + 13.0),
            esc(label),
            if i + 1 == steps.len() { " goal" } else { "" },
            coord(y + 18.0),
            coord(width),
            coord(LEFT + width + 6.0),
            coord(y + 29.5),
            esc(shown),
        );
    }
    s.push_str("</svg>");
    s
}

/// A histogram: a bar per bin (labelled under it, counted above it) and a
/// dashed line at `median`, (bin, place in it), labelled `median_word`.
pub fn histogram(
    bins: &[(String, u64)],
    median: Option<(usize, f64)>,
    median_word: &str,
) -> String {
    const TOP: f64 = 30.0;
    const BOTTOM: f64 = 140.0;
    const LEFT: f64 = 6.0;
    let slot = (W - 2.0 * LEFT) / bins.len().max(1) as f64;
    let max = bins.iter().map(|b| b.1).max().unwrap_or(0).max(1) as f64;
    let mut s = open("histogram", BOTTOM + 22.0);
    let _ = write!(
        s,
        r#"<line class="base" x1="{LEFT}" x2="{}" y1="{BOTTOM}" y2="{BOTTOM}"></line>"#,
        coord(W - LEFT)
    );
    for (i, (label, n)) in bins.iter().enumerate() {
        let x = LEFT + slot * i as f64;
        let height = *n as f64 / max * (BOTTOM - TOP);
        let centre = coord(x + slot / 2.0);
        let _ = write!(
            s,
            r#"<rect class="bar" x="{}" y="{}" width="{}" height="{}"></rect><text class="count" x="{centre}" y="{}" text-anchor="middle">{n}</text><text class="bin" x="{centre}" y="{}" text-anchor="middle">{}</text>"#,
            coord(x + 3.0),
            coord(BOTTOM - height),
            coord(slot - 6.0),
            coord(height),
            coord(BOTTOM - height - 4.0),
            coord(BOTTOM + 16.0),
            esc(label),
        );
    }
    if let Some((i, place)) = median {
        let x = coord(LEFT + slot * (i as f64 + place));
        let _ = write!(
            s,
            r#"<line class="median" x1="{x}" x2="{x}" y1="12" y2="{BOTTOM}"></line><text class="median-label" x="{x}" y="10" text-anchor="middle">{}</text>"#,
            esc(median_word)
        );
    }
    s.push_str("</svg>");
    s
}

/// Visits per day from `first` to `last` (days since 1970, inclusive; days
/// without visits drawn empty), those that reached the goal darker, the
/// first and last days' dates (`first_label`, `last_label`) under the axis.
pub fn days(days: &[Day], first: i64, last: i64, labels: (&str, &str)) -> String {
    const TOP: f64 = 10.0;
    const BOTTOM: f64 = 120.0;
    const LEFT: f64 = 6.0;
    let span = (last - first + 1).max(1);
    let slot = (W - 2.0 * LEFT) / span as f64;
    let gap = if slot > 6.0 { 1.5 } else { 0.0 };
    let max = days.iter().map(|d| d.visits).max().unwrap_or(0).max(1) as f64;
    let mut s = open("days-chart", BOTTOM + 22.0);
    let _ = write!(
        s,
        r#"<line class="base" x1="{LEFT}" x2="{}" y1="{BOTTOM}" y2="{BOTTOM}"></line>"#,
        coord(W - LEFT)
    );
    for d in days.iter().filter(|d| (first..=last).contains(&d.day)) {
        let x = LEFT + slot * (d.day - first) as f64 + gap;
        let width = coord((slot - 2.0 * gap).max(0.5));
        for (class, n) in [("visits", d.visits), ("goal", d.reached_goal)] {
            let height = n as f64 / max * (BOTTOM - TOP);
            let _ = write!(
                s,
                r#"<rect class="{class}" x="{}" y="{}" width="{width}" height="{}"></rect>"#,
                coord(x),
                coord(BOTTOM - height),
                coord(height)
            );
        }
    }
    let _ = write!(
        s,
        r#"<text class="day" x="{LEFT}" y="{0}">{1}</text><text class="day" x="{2}" y="{0}" text-anchor="end">{3}</text></svg>"#,
        coord(BOTTOM + 16.0),
        esc(labels.0),
        coord(W - LEFT),
        esc(if first == last { "" } else { labels.1 }),
    );
    s
}

/// A path's points as a polyline's `points`, each where `at` puts it.
pub fn polyline(path: &[&Point], at: impl Fn(&Point) -> (f64, f64)) -> String {
    let pairs: Vec<String> = path
        .iter()
        .map(|p| {
            let (x, y) = at(p);
            format!("{},{}", coord(x), coord(y))
        })
        .collect();
    pairs.join(" ")
}

/// The view of the map to draw `points` on: the page's zoom on the valley
/// when every dot and every path's end is inside it (the lines are clipped
/// at its edge), else the whole map; and whether it is the zoom.
pub fn view_for(points: &Points) -> (MapView, bool) {
    let valley = MapView::valley();
    let inside = |p: &Point| {
        (valley.weight.0..=valley.weight.1).contains(&p.weight)
            && (valley.bias.0..=valley.bias.1).contains(&p.bias)
    };
    let ends = points.paths.iter().filter_map(|path| path.last());
    let drawn = points.stuck.len() + points.paths.len();
    if drawn > 0 && points.stuck.iter().chain(ends).all(inside) {
        (valley, true)
    } else {
        (MapView::full(), false)
    }
}

/// Where learners stop, on the error landscape the page shows (its colours,
/// contours, axes, goal label and island, in `view`): the paths of the
/// visits that reached the goal as faint lines ending in a dot, and above
/// them the last points of those that did not as dots.
pub fn map(t: &Texts, points: &Points, view: &MapView) -> String {
    let mut s = format!(
        r#"<svg class="insights-map-svg" viewBox="0 0 {WIDTH} {HEIGHT}" aria-hidden="true" focusable="false">"#
    );
    s.push_str(&background(t, view));
    s.push_str(&goal_label(t, view));
    s.push_str(r#"<g clip-path="url(#landscape-plot)">"#);
    let at = |p: &Point| view.to_svg(Params::new(p.weight, p.bias));
    for path in &points.paths {
        let path = marks(path);
        if path.len() > 1 {
            let _ = write!(
                s,
                r#"<polyline class="arrived" points="{}"></polyline>"#,
                polyline(&path, at)
            );
        }
        if let Some((x, y)) = path.last().map(|p| at(p)) {
            let _ = write!(
                s,
                r#"<circle class="arrived-end" cx="{}" cy="{}" r="2.5"></circle>"#,
                coord(x),
                coord(y)
            );
        }
    }
    for p in &points.stuck {
        let (x, y) = at(p);
        let _ = write!(
            s,
            r#"<circle class="stuck" cx="{}" cy="{}" r="3.5"></circle>"#,
            coord(x),
            coord(y)
        );
    }
    s.push_str("</g>");
    s.push_str(&island(view));
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::i18n::texts;
    use lesson::map::{PLOT_BOTTOM, PLOT_LEFT, PLOT_RIGHT, PLOT_TOP};
    use vocabulary::Lang;

    #[test]
    fn funnel_bars_scale_with_the_first_step() {
        let s = funnel(&[("Visits", 10, "10".into()), ("<Goal>", 5, "5 · 50%".into())]);
        assert!(
            s.contains(r#"class="bar" x="4" y="18.00" width="230.00""#),
            "{s}"
        );
        assert!(
            s.contains(r#"class="bar goal" x="4" y="56.00" width="115.00""#),
            "{s}"
        );
        assert!(s.contains("&lt;Goal&gt;") && !s.contains("<Goal>"));
        assert!(s.contains(r#"aria-hidden="true""#));
        // No visits: no bar, no division by zero.
        assert!(!funnel(&[("Visits", 0, "0".into())]).contains("NaN"));
    }

    #[test]
    fn histogram_bars_and_the_median_line() {
        let bins = [("1".to_string(), 2), ("2".to_string(), 4)];
        let s = histogram(&bins, Some((1, 0.5)), "median");
        // Two slots of 174 units; the taller bar is the whole plot's height.
        assert!(
            s.contains(r#"<rect class="bar" x="183.00" y="30.00" width="168.00" height="110.00">"#),
            "{s}"
        );
        assert!(s.contains(r#"<line class="median" x1="267.00""#), "{s}");
        assert!(!histogram(&[], None, "m").contains("NaN"));
    }

    #[test]
    fn days_span_the_period_and_leave_empty_days_empty() {
        let days_seen = [
            Day {
                day: 100,
                visits: 4,
                reached_goal: 1,
            },
            Day {
                day: 103,
                visits: 2,
                reached_goal: 2,
            },
        ];
        let s = days(&days_seen, 100, 103, ("a", "b"));
        assert_eq!(s.matches(r#"class="visits""#).count(), 2);
        // Four slots of 87 units; day 103 is the fourth.
        assert!(
            s.contains(r#"<rect class="visits" x="268.50" y="65.00""#),
            "{s}"
        );
        assert!(
            s.contains(r#"<rect class="goal" x="268.50" y="65.00""#),
            "{s}"
        );
        assert!(!days(&[], 5, 5, ("a", "b")).contains("NaN"));
    }

    #[test]
    fn the_map_is_the_pages_landscape_with_the_points_on_it() {
        let t = texts(Lang::Zh);
        let points = Points {
            stuck: vec![Point {
                weight: 0.1,
                weight2: 0.0,
                bias: 150.0,
                error: 9000.0,
            }],
            paths: vec![
                vec![
                    Point {
                        weight: 0.0,
                        weight2: 0.0,
                        bias: 0.0,
                        error: 1e5,
                    },
                    Point {
                        weight: 0.4,
                        weight2: 0.0,
                        bias: 460.0,
                        error: 449.0,
                    },
                ],
                vec![Point {
                    weight: 0.18,
                    weight2: 0.0,
                    bias: 80.0,
                    error: 449.0,
                }],
            ],
        };
        let s = map(t, &points, &MapView::full());
        assert!(s.starts_with(r#"<svg class="insights-map-svg" viewBox="0 0 360 300""#));
        assert!(s.contains(&background(t, &MapView::full())));
        assert!(s.contains(&island(&MapView::full())));
        // (0, 0) is the plot's lower left corner, (0.4, 460) its upper right.
        let corners = format!(
            r#"points="{},{} {},{}""#,
            coord(PLOT_LEFT),
            coord(PLOT_BOTTOM),
            coord(PLOT_RIGHT),
            coord(PLOT_TOP)
        );
        assert!(s.contains(&corners), "{s}");
        assert_eq!(
            s.matches(r#"class="arrived""#).count(),
            1,
            "a one-point path has no line"
        );
        assert_eq!(s.matches(r#"class="arrived-end""#).count(), 2);
        assert_eq!(s.matches(r#"class="stuck""#).count(), 1);
        let at = |class: &str| s.find(&format!("class=\"{class}\"")).expect(class);
        assert!(at("arrived") < at("stuck"), "dots over paths");
        assert!(at("stuck") < at("island-halo"), "the island on top");
        // A path from (0, 0) leaves the valley: the whole map.
        assert_eq!(view_for(&points), (MapView::full(), false));
    }

    #[test]
    fn the_map_zooms_on_the_valley_when_everything_is_in_it() {
        let near = |error| Point {
            weight: 0.06,
            weight2: 0.0,
            bias: 230.0,
            error,
        };
        let start = Point {
            weight: 0.1,
            weight2: 0.0,
            bias: 150.0,
            error: 13_359.0,
        };
        let points = Points {
            stuck: vec![near(600.0)],
            paths: vec![vec![start, near(449.0)]],
        };
        assert_eq!(view_for(&points), (MapView::valley(), true));
        let nothing = Points::default();
        assert_eq!(
            view_for(&nothing),
            (MapView::full(), false),
            "nothing to zoom on"
        );
        let far = Points {
            stuck: vec![Point {
                weight: 0.3,
                weight2: 0.0,
                bias: 400.0,
                error: 9e4,
            }],
            ..points
        };
        assert!(!view_for(&far).1);
    }
}
