//! What the landscape map's marks mean, as markup strings (see
//! [`crate::page::landscape::markup`] for why strings): the goal island, its label and
//! the legend under the map.
//!
//! The island (error below the goal) is a sliver about 10 SVG units across in
//! the full view, on the darkest colour of a green-teal map. So it is drawn
//! last, above the trail and the model's marker (the ring hid it once the model
//! came close), with a light halo under a dark outline that stands out on any
//! colour, and a label ("Goal: below 450") points at it from above. The legend
//! names every mark in words, with a swatch drawn with the map's own classes.

#[cfg(feature = "ssr")]
use std::fmt::Write;

use crate::page::i18n::Texts;
use crate::page::landscape::markup::ellipse_path;
#[cfg(feature = "ssr")]
use crate::page::landscape::markup::star_path;
#[cfg(feature = "ssr")]
use lesson::map::fill_at;
use lesson::map::{coord, MapView, PLOT_LEFT, PLOT_RIGHT, PLOT_TOP};
use lesson::{
    contour::Ellipse,
    neuron::{optimum, GOAL},
};

/// The largest font size of the map's labels, in SVG units (phones' CSS).
const LABEL_FONT: f64 = 14.0;

/// The island above everything: a wide light halo, then the dark outline.
#[must_use]
pub fn island(view: &MapView) -> String {
    let Some(e) = Ellipse::at_level(GOAL) else {
        return String::new();
    };
    let d = ellipse_path(view, &e);
    format!(
        r#"<g clip-path="url(#landscape-plot)"><path class="island-halo" d="{d}"></path><path class="contour island island-line" data-testid="landscape-island" data-level="{GOAL}" d="{d}"></path></g>"#
    )
}

/// About how wide `text` is at `font` SVG units: a Chinese character is a
/// square, a Latin letter or digit about 0.6 of one (bold, generous).
#[must_use]
pub fn text_width(text: &str, font: f64) -> f64 {
    text.chars()
        .map(|c| if u32::from(c) >= 0x2E80 { 1.0 } else { 0.6 })
        .sum::<f64>()
        * font
}

/// Where the goal's label goes in `view`: the start of its baseline, up and to
/// the right of the island (off the valley, which runs from the upper left to the
/// lower right), kept inside the plot; and where its pointer meets the label.
#[must_use]
pub fn label_at(view: &MapView, text: &str) -> ((f64, f64), (f64, f64)) {
    let (cx, cy) = view.to_svg(optimum());
    let width = text_width(text, LABEL_FONT);
    let x = (cx + 16.0)
        .min(PLOT_RIGHT - 4.0 - width)
        .max(PLOT_LEFT + 4.0);
    let y = (cy - 20.0).max(PLOT_TOP + LABEL_FONT + 2.0);
    let pointer = ((cx + 12.0).clamp(x, x + width), y + 4.0);
    ((x, y), pointer)
}

/// The goal's label and its pointer (drawn in the background, under the trail).
#[must_use]
pub fn goal_label(t: &Texts, view: &MapView) -> String {
    let text = format!("{}{}", t.goal, t.plain(GOAL, 0));
    let ((x, y), (px, py)) = label_at(view, &text);
    let (cx, cy) = view.to_svg(optimum());
    let line = format!(
        r#"x1="{}" y1="{}" x2="{}" y2="{}""#,
        coord(cx),
        coord(cy),
        coord(px),
        coord(py)
    );
    format!(
        r#"<g class="goal-label" data-testid="landscape-goal-label"><line class="pointer-halo" {line}></line><line class="pointer" {line}></line><text x="{}" y="{}">{text}</text></g>"#,
        coord(x),
        coord(y)
    )
}

/// The legend's items (an `<ul>`'s content): the colour scale between "low
/// error" and "high error", then the island, the contours, the trail, the best
/// attempt, the descent lab's path and the marker, each a swatch and words.
#[cfg(feature = "ssr")]
#[must_use]
pub fn legend(t: &Texts) -> String {
    const SWATCH: &str = r#"<svg class="swatch" viewBox="0 0 28 16" width="28" height="16" aria-hidden="true" focusable="false">"#;
    let mut s = String::from(r#"<li class="scale"><span>"#);
    let _ = write!(
        s,
        r#"{}</span><svg class="swatch" viewBox="0 0 64 16" width="64" height="16" aria-hidden="true" focusable="false"><defs><linearGradient id="landscape-scale">"#,
        t.server.map_low
    );
    for i in 0..=4 {
        let at = f64::from(i) / 4.0;
        let _ = write!(
            s,
            r#"<stop offset="{at}" stop-color="{}"></stop>"#,
            fill_at(at)
        );
    }
    s.push_str(r#"</linearGradient></defs><rect class="scale-bar" x="0.5" y="2.5" width="63" height="11" fill="url(#landscape-scale)"></rect></svg>"#);
    let _ = write!(s, "<span>{}</span></li>", t.server.map_high);
    let island = r#"<ellipse class="island-halo" cx="14" cy="8" rx="10" ry="3" transform="rotate(35 14 8)"></ellipse><ellipse class="island-line" cx="14" cy="8" rx="10" ry="3" transform="rotate(35 14 8)"></ellipse>"#;
    let best = format!(
        r#"<path class="trail best" d="{}"></path>"#,
        star_path(14.0, 8.0, 7.0)
    );
    let items: [(&str, &str); 6] = [
        (island, t.server.map_island),
        (
            r#"<line class="contour" x1="1" y1="8" x2="27" y2="8"></line>"#,
            t.server.map_contours,
        ),
        (
            r#"<polyline class="trail-line" points="4,11 14,5 24,9"></polyline><circle class="trail" cx="4" cy="11" r="3"></circle><circle class="trail" cx="14" cy="5" r="3"></circle><circle class="trail" cx="24" cy="9" r="3"></circle>"#,
            t.server.map_trail,
        ),
        (&best, t.server.map_best),
        (
            r#"<polyline class="descent-path" points="2,13 9,6 16,9 26,3"></polyline>"#,
            t.server.map_descent,
        ),
        (
            r#"<circle class="marker-halo" cx="14" cy="8" r="6.5"></circle><circle class="marker-dot" cx="14" cy="8" r="3.5"></circle>"#,
            t.server.map_marker,
        ),
    ];
    for (marks, words) in items {
        let _ = write!(s, "<li>{SWATCH}{marks}</svg><span>{words}</span></li>");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::i18n::texts;
    use vocabulary::Lang;

    #[test]
    fn the_island_is_outlined_once_above_a_halo() {
        for view in [MapView::full(), MapView::valley()] {
            let s = island(&view);
            assert_eq!(
                s.matches(r#"class="contour island island-line""#).count(),
                1
            );
            assert_eq!(s.matches(r#"class="island-halo""#).count(), 1);
            // The halo first, so the outline is drawn over it.
            assert!(s.find("island-halo") < s.find("island-line"));
            assert!(!s.contains("NaN"));
        }
    }

    #[test]
    fn the_island_is_big_enough_to_see_once_zoomed() {
        // The island's box in SVG units; the map is drawn 320–520 px wide for its
        // 360 units, so 14 units are at least 12 px on a phone. In the full view
        // (Jay's ranges, weight 0–0.4) it is about 7 × 11 units: small, which is
        // why the map zooms to the valley.
        let size = |view: MapView| {
            let b = Ellipse::at_level(GOAL).expect("island").bounds();
            let (x0, y0) = view.to_svg(lesson::neuron::Params::new(b.weight.0, b.bias.1));
            let (x1, y1) = view.to_svg(lesson::neuron::Params::new(b.weight.1, b.bias.0));
            ((x1 - x0).abs(), (y1 - y0).abs())
        };
        let (w, h) = size(MapView::full());
        assert!(w > 7.0 && h > 9.0, "{w} {h}");
        let (w, h) = size(MapView::valley());
        assert!(w.min(h) > 14.0, "{w} {h}");
    }

    #[test]
    fn the_label_stays_inside_the_plot_above_the_island_in_every_language() {
        for lang in Lang::ALL {
            let t = texts(lang);
            let text = format!("{}{}", t.goal, t.plain(GOAL, 0));
            for view in [MapView::full(), MapView::valley()] {
                let ((x, y), (px, py)) = label_at(&view, &text);
                let width = text_width(&text, LABEL_FONT);
                assert!(
                    x >= PLOT_LEFT && x + width <= PLOT_RIGHT,
                    "{lang:?} {x} {width}"
                );
                assert!(y - LABEL_FONT >= PLOT_TOP, "{lang:?} {y}");
                let (_, cy) = view.to_svg(optimum());
                assert!(y < cy - 10.0 && py < cy && px >= x, "{lang:?}");
                let s = goal_label(t, &view);
                assert!(s.contains(&format!(">{text}</text>")) && !s.contains("NaN"));
            }
        }
        assert!((text_width("目标：低于 450", 10.0) - (5.0 * 10.0 + 4.0 * 6.0)).abs() < 1e-9);
    }

    #[test]
    fn the_legend_names_every_mark_in_words() {
        for lang in Lang::ALL {
            let t = texts(lang);
            let s = legend(t);
            assert_eq!(s.matches("</li>").count(), 7, "{lang:?}");
            for words in [
                t.server.map_low,
                t.server.map_high,
                t.server.map_island,
                t.server.map_contours,
                t.server.map_trail,
                t.server.map_best,
                t.server.map_descent,
                t.server.map_marker,
            ] {
                assert!(
                    s.contains(&format!("<span>{words}</span>")),
                    "{lang:?} {words}"
                );
            }
            // Swatches are pictures of words said next to them.
            assert_eq!(
                s.matches("<svg").count(),
                s.matches(r#"aria-hidden="true""#).count()
            );
            assert_eq!(s.matches("<stop").count(), 5);
            assert!(s.contains(&fill_at(0.0)) && s.contains(&fill_at(1.0)));
        }
    }
}
