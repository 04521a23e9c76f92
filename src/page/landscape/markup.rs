//! The landscape map's drawing as SVG markup strings (set as `inner_html`).
//!
//! Hundreds of rects, paths and labels written as one string per layer keep the
//! WASM small: Leptos compiles every typed `view!` element and reactive attribute
//! into code of its own. Everything written here is numbers and fixed words; no
//! visitor or upstream text ever reaches these strings.
//!
//! Two layers: the background (colour grid, contours, frame, ticks, axis labels),
//! which changes only with the zoom, and the overlay (the gradient descent lab's
//! path and the trail of attempts, best starred). The goal island, its label and
//! the legend are [`crate::page::landscape::legend`]'s.

use std::fmt::Write;

use crate::page::i18n::Texts;
use crate::page::{model::Attempt, results::attempts::best_index};
use lesson::map::{coord, fill_of, MapView, HEIGHT, PLOT_BOTTOM, PLOT_LEFT, PLOT_RIGHT, PLOT_TOP};
use lesson::{
    contour::{Ellipse, MAP_CONTOURS},
    neuron::Params,
};
use vocabulary::format::plain;

/// How many of the latest attempts the trail shows (plus the best, always).
const TRAIL: usize = 40;

/// The background layer of `view`.
#[must_use]
pub fn background(t: &Texts, view: &MapView) -> String {
    let mut s = String::with_capacity(32 * 1024);
    s.push_str(r#"<g class="cells">"#);
    for c in view.cells() {
        let _ = write!(
            s,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"></rect>"#,
            coord(c.x),
            coord(c.y),
            coord(c.width),
            coord(c.height),
            fill_of(c.error)
        );
    }
    s.push_str("</g>");
    let _ = write!(
        s,
        r#"<clipPath id="landscape-plot"><rect x="{0}" y="{1}" width="{2}" height="{3}"></rect></clipPath><rect class="plot-frame" data-testid="landscape-plot" x="{0}" y="{1}" width="{2}" height="{3}"></rect>"#,
        coord(PLOT_LEFT),
        coord(PLOT_TOP),
        coord(PLOT_RIGHT - PLOT_LEFT),
        coord(PLOT_BOTTOM - PLOT_TOP)
    );
    s.push_str(r#"<g clip-path="url(#landscape-plot)">"#);
    // The rungs above the goal; the island, its label and the legend are
    // [`crate::page::landscape::legend`]'s (the island is drawn last, above the marker).
    for e in MAP_CONTOURS.iter().filter_map(|&l| Ellipse::at_level(l)) {
        let _ = write!(
            s,
            r#"<path class="contour" data-level="{}" d="{}"></path>"#,
            e.level,
            ellipse_path(view, &e)
        );
    }
    s.push_str(r#"</g><g class="axis">"#);
    let (weights, biases) = view.ticks();
    for (w, x) in weights {
        let _ = write!(
            s,
            r#"<line x1="{0}" x2="{0}" y1="{1}" y2="{2}"></line><text x="{0}" y="{3}" text-anchor="middle">{4}</text>"#,
            coord(x),
            coord(PLOT_BOTTOM),
            coord(PLOT_BOTTOM + 5.0),
            coord(PLOT_BOTTOM + 18.0),
            t.plain(w, 3)
        );
    }
    for (b, y) in biases {
        let _ = write!(
            s,
            r#"<line x1="{0}" x2="{1}" y1="{2}" y2="{2}"></line><text x="{3}" y="{4}" text-anchor="end">{5}</text>"#,
            coord(PLOT_LEFT - 5.0),
            coord(PLOT_LEFT),
            coord(y),
            coord(PLOT_LEFT - 8.0),
            coord(y + 4.0),
            plain(b, 0)
        );
    }
    let _ = write!(
        s,
        r#"</g><text class="axis-label" x="{}" y="{}" text-anchor="middle">{}</text><text class="axis-label" text-anchor="middle" transform="translate(13 {}) rotate(-90)">{}</text>"#,
        coord((PLOT_LEFT + PLOT_RIGHT) / 2.0),
        coord(HEIGHT - 4.0),
        t.axis_weight,
        coord((PLOT_TOP + PLOT_BOTTOM) / 2.0),
        t.axis_bias,
    );
    s
}

/// Appends a `<polyline>` of class and test id `name` through `points`.
fn polyline(s: &mut String, name: &str, points: impl Iterator<Item = (f64, f64)>) {
    let _ = write!(
        s,
        r#"<polyline class="{name}" data-testid="{name}" points=""#
    );
    for (i, (x, y)) in points.enumerate() {
        let _ = write!(
            s,
            "{}{},{}",
            if i == 0 { "" } else { " " },
            coord(x),
            coord(y)
        );
    }
    s.push_str(r#""></polyline>"#);
}

/// The overlay layer: the descent path, then the trail (latest [`TRAIL`] attempts
/// as dots joined by a line, the best as a star), clipped to the plot.
#[must_use]
pub fn overlay(view: &MapView, attempts: &[Attempt], path: &[Params]) -> String {
    let mut s = String::from(r#"<g clip-path="url(#landscape-plot)">"#);
    if !path.is_empty() {
        polyline(&mut s, "descent-path", path.iter().map(|&p| view.to_svg(p)));
    }
    let best = best_index(attempts);
    let first = attempts.len().saturating_sub(TRAIL);
    // The trail joined in order, so that alternating the best-response buttons
    // visibly zig-zags.
    if attempts.len() - first > 1 {
        let points = attempts[first..].iter().map(|a| view.to_svg(a.params));
        polyline(&mut s, "trail-line", points);
    }
    for (i, a) in attempts.iter().enumerate() {
        let (x, y) = view.to_svg(a.params);
        if Some(i) == best {
            let _ = write!(
                s,
                r#"<path class="trail best" data-testid="trail-best" d="{}"></path>"#,
                star_path(x, y, 7.0)
            );
        } else if i >= first {
            let _ = write!(
                s,
                r#"<circle class="trail" cx="{}" cy="{}" r="3"></circle>"#,
                coord(x),
                coord(y)
            );
        }
    }
    s.push_str("</g>");
    s
}

/// An SVG path of a contour: 96 points of the exact ellipse, closed. The points
/// are [`Ellipse::point`]'s, with the angle advanced by a fixed rotation rather
/// than `cos`/`sin` calls (which would bring 8 KB of trigonometry into the WASM).
#[must_use]
pub fn ellipse_path(view: &MapView, e: &Ellipse) -> String {
    // cos and sin of 2π/96.
    const COS: f64 = 0.997_858_923_238_603_5;
    const SIN: f64 = 0.065_403_129_230_143_06;
    let (mut c, mut s) = (1.0_f64, 0.0_f64);
    let mut d = String::new();
    for i in 0..96 {
        let along = e.long_axis.scaled(c * e.semi_long);
        let across = e.short_axis.scaled(s * e.semi_short);
        let (x, y) = view.to_svg(along.added_to(across.added_to(e.centre)));
        d.push_str(if i == 0 { "M" } else { "L" });
        d.push_str(&format!("{},{}", coord(x), coord(y)));
        (c, s) = (c * COS - s * SIN, s * COS + c * SIN);
    }
    d.push('Z');
    d
}

/// A five-pointed star of outer radius `r` centred on (x, y), point up.
#[must_use]
pub fn star_path(x: f64, y: f64, r: f64) -> String {
    // Unit (cos, sin) of the ten vertices, every 36° from the top (no trigonometry
    // at run time): outer points at radius 1, inner at 0.45.
    const VERTICES: [(f64, f64); 10] = [
        (0.0, -1.0),
        (0.264_503, -0.364_058),
        (0.951_057, -0.309_017),
        (0.427_975, 0.139_058),
        (0.587_785, 0.809_017),
        (0.0, 0.45),
        (-0.587_785, 0.809_017),
        (-0.427_975, 0.139_058),
        (-0.951_057, -0.309_017),
        (-0.264_503, -0.364_058),
    ];
    let mut d = String::new();
    for (i, (dx, dy)) in VERTICES.into_iter().enumerate() {
        d.push_str(if i == 0 { "M" } else { "L" });
        d.push_str(&format!("{},{}", coord(x + r * dx), coord(y + r * dy)));
    }
    d.push('Z');
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use lesson::neuron::GOAL;

    #[test]
    fn the_background_is_small_labels_the_goal_and_has_no_nan() {
        for view in [MapView::full(), MapView::valley()] {
            let s = background(crate::page::i18n::texts(vocabulary::Lang::En), &view);
            assert_eq!(
                s.matches("<rect").count(),
                302,
                "300 cells, the clip and the frame"
            );
            // 799, 600 and 500; the island is drawn above the marker.
            assert_eq!(s.matches("<path").count(), 3);
            assert!(!s.contains("island"));
            assert!(!s.contains("NaN") && !s.contains("inf"));
            let elements = s.matches('<').count() - s.matches("</").count();
            assert!(elements < 400, "keep the DOM small: {elements}");
        }
    }

    #[test]
    fn the_overlay_stars_the_best_and_caps_the_trail() {
        let view = MapView::full();
        let attempts: Vec<Attempt> = (0..60)
            .map(|i| {
                let params = Params::new(0.05 + f64::from(i) * 0.001, 250.0);
                Attempt {
                    params,
                    error: params.error(),
                }
            })
            .collect();
        let s = overlay(
            &view,
            &attempts,
            &[Params::new(0.1, 150.0), Params::new(0.2, 1e9)],
        );
        assert_eq!(s.matches("trail best").count(), 1);
        assert_eq!(s.matches("<circle").count(), TRAIL);
        assert!(s.contains("descent-path") && !s.contains("NaN"));
        assert_eq!(s.matches(r#"class="trail-line""#).count(), 1);
        assert!(!overlay(&view, &[], &[]).contains("polyline"));
    }

    #[test]
    fn paths_are_closed() {
        let island = Ellipse::at_level(GOAL).expect("island");
        let d = ellipse_path(&MapView::full(), &island);
        assert!(d.starts_with('M') && d.ends_with('Z') && !d.contains("NaN"));
        assert_eq!(d.matches('L').count(), 95);
        // The same points as the exact parametrisation.
        let view = MapView::full();
        let expected: Vec<String> = island
            .points(96)
            .into_iter()
            .map(|p| {
                let (x, y) = view.to_svg(p);
                format!("{},{}", coord(x), coord(y))
            })
            .collect();
        let drawn: Vec<&str> = d[1..d.len() - 1].split('L').collect();
        assert_eq!(drawn, expected);
        // The star's vertices: outer ones at radius 1, inner ones at 0.45, 36° apart.
        for (i, pair) in star_path(0.0, 0.0, 100.0)[1..]
            .trim_end_matches('Z')
            .split('L')
            .enumerate()
        {
            let (x, y) = pair.split_once(',').expect("x,y");
            let (x, y): (f64, f64) = (x.parse().expect("x"), y.parse().expect("y"));
            let angle = std::f64::consts::PI * (i as f64 / 5.0 - 0.5);
            let radius = if i % 2 == 0 { 100.0 } else { 45.0 };
            assert!(
                (x - radius * angle.cos()).abs() < 0.01 && (y - radius * angle.sin()).abs() < 0.01,
                "{i}: {pair}"
            );
        }
        assert_eq!(star_path(0.0, 0.0, 1.0).matches('L').count(), 9);
    }
}
