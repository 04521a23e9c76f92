//! Where lesson 2's visits stop, on the map `/two` shows (w1 across, w2 up,
//! the bias at its best for each point: `page::two::figures::map_ground`,
//! with its ladder's contours, the goal's island and the w2 = 0 line): the
//! paths of the visits that reached the goal as faint lines ending in a dot,
//! and above them the last points of those that did not. The page's "near
//! the goal" view when every dot and every path's end is in it, else Jay's
//! whole ranges. The map is stretched to its box (`preserveAspectRatio`
//! `none`, as on `/two`), so its dots are round-capped lines of no length
//! and its strokes do not scale.

use std::fmt::Write;

use super::charts::polyline;
use crate::page::two::figures::map_ground;
use insights::report::effort::{marks, Point, Points};
use lesson::{
    map::coord,
    two_view::{map_xy, MAP_ALL, MAP_NEAR},
};

/// A point's place on the map, in its units (`+ 0.0`: w2 = 0 is 0, not −0).
fn at(p: &Point) -> (f64, f64) {
    let (x, y) = map_xy(p.weight, p.weight2);
    (x + 0.0, y + 0.0)
}

/// Whether `(x, y)` is inside the `viewBox` `v`.
fn inside(v: [f64; 4], (x, y): (f64, f64)) -> bool {
    (v[0]..=v[0] + v[2]).contains(&x) && (v[1]..=v[1] + v[3]).contains(&y)
}

/// The view to draw `points` in, and whether it is the near one.
fn view_for(points: &Points) -> ([f64; 4], bool) {
    let ends = points.paths.iter().filter_map(|path| path.last());
    let mut all = points.stuck.iter().chain(ends).peekable();
    let near = all.peek().is_some() && all.all(|p| inside(MAP_NEAR, at(p)));
    if near {
        (MAP_NEAR, true)
    } else {
        (MAP_ALL, false)
    }
}

/// A dot at `(x, y)` of `class`.
fn dot(s: &mut String, class: &str, (x, y): (f64, f64)) {
    let (x, y) = (coord(x), coord(y));
    let _ = write!(
        s,
        r#"<line class="{class}" x1="{x}" y1="{y}" x2="{x}" y2="{y}" vector-effect="non-scaling-stroke"/>"#
    );
}

/// The map with `points` on it, and whether it shows the near view.
pub fn map(points: &Points) -> (String, bool) {
    let (view, near) = view_for(points);
    let mut s = format!(
        r#"<svg class="insights-map-svg insights-map-two" viewBox="{} {} {} {}" preserveAspectRatio="none" aria-hidden="true" focusable="false">"#,
        view[0], view[1], view[2], view[3]
    );
    s.push_str(&map_ground());
    for path in &points.paths {
        let path = marks(path);
        if path.len() > 1 {
            let _ = write!(
                s,
                r#"<polyline class="arrived" points="{}" vector-effect="non-scaling-stroke"/>"#,
                polyline(&path, at)
            );
        }
        if let Some(p) = path.last() {
            dot(&mut s, "arrived-end-dot", at(p));
        }
    }
    for p in &points.stuck {
        dot(&mut s, "stuck-dot", at(p));
    }
    s.push_str("</svg>");
    (s, near)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(w1: f64, w2: f64, error: f64) -> Point {
        Point {
            weight: w1,
            weight2: w2,
            bias: 0.0,
            error,
        }
    }

    #[test]
    fn the_map_is_the_pages_with_the_points_on_it() {
        let points = Points {
            stuck: vec![p(0.1794, 0.0, 1423.44)],
            paths: vec![vec![p(0.1, 0.0, 3431.91), p(0.185, -9.0, 1408.5)]],
        };
        let (svg, near) = map(&points);
        assert!(near, "every point is near the goal");
        assert!(svg.contains(r#"viewBox="50 -60 250 120""#));
        assert!(svg.contains(r#"class="island"#) && svg.contains("no-bathrooms"));
        assert!(
            svg.contains(r#"<polyline class="arrived" points="100.00,0.00 185.00,9.00""#),
            "{svg}"
        );
        assert!(svg.contains(r#"class="stuck-dot" x1="179.40" y1="0.00""#));
        assert_eq!(svg.matches("arrived-end-dot").count(), 1);
        // A point far out: Jay's whole ranges.
        let far = Points {
            stuck: vec![p(-0.3, 150.0, 90_000.0)],
            paths: Vec::new(),
        };
        let (svg, near) = map(&far);
        assert!(!near && svg.contains(r#"viewBox="-400 -200 800 300""#));
        assert!(!map(&Points::default()).1, "nothing to zoom on");
    }
}
