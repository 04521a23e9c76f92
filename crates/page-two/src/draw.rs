//! Drawing a point: every number, line, dot and sentence of the page, and
//! the map's two views.

use wasm_bindgen::JsCast;
use web_sys::{Document, Element};

use crate::{
    dom::{attr, fill_template, input, text},
    State,
};
use lesson::two_view::{self as readout, Readout, LESSON};
use vocabulary::{fill, format};

/// Writes every number of the page for the point.
pub(crate) fn render(s: &State) {
    let (doc, lang, p) = (&s.doc, s.lang, s.point);
    let r = Readout::at(p);
    for (i, spec) in LESSON.params.iter().enumerate() {
        let raw = format::plain(p[i], readout::DECIMALS[i]);
        let shown = format::localise(raw.clone(), lang);
        if let Some(slider) = input(doc, spec.key) {
            slider.set_value(&raw);
        }
        if let Some(number) = input(doc, &format!("{}-number", spec.key)) {
            number.set_value(&shown);
            let _ = number.set_attribute("aria-valuenow", &raw);
        }
    }
    text(doc, "two-error", &format::grouped_in(r.error, 2, lang));
    let reached = readout::WHICH.reaches_goal(r.error);
    if let Some(score) = doc.get_element_by_id("two-score") {
        let _ = score.class_list().toggle_with_force("success", reached);
    }
    let status = if reached {
        ("data-reached", "above", r.error - readout::WHICH.floor())
    } else {
        ("data-to-go", "left", r.error - LESSON.goal)
    };
    if let Some(el) = doc.get_element_by_id("two-status") {
        let template = el.get_attribute(status.0).unwrap_or_default();
        el.set_text_content(Some(&fill(
            &template,
            &[(status.1, &format::grouped_in(status.2.max(0.0), 2, lang))],
        )));
    }
    for (k, (y1, y2)) in r.lines.iter().enumerate() {
        let id = format!("two-line-{k}");
        attr(doc, &id, "y1", &format!("{y1:.2}"));
        attr(doc, &id, "y2", &format!("{y2:.2}"));
    }
    let (x, y) = readout::map_xy(p[0], p[1]);
    for (name, v) in [("x1", x), ("x2", x), ("y1", y), ("y2", y)] {
        attr(doc, "two-marker", name, &format!("{v:.3}"));
    }
    for (id, x) in [("strip-best", r.strip_best), ("strip-now", r.strip_now)] {
        attr(doc, id, "x1", &format!("{x:.2}"));
        attr(doc, id, "x2", &format!("{x:.2}"));
    }
    let num = |v: f64, d: usize| format::localise(format::plain(v, d), lang);
    fill_template(
        doc,
        "strip-cost",
        &[
            ("b", &num(p[2], 2)),
            ("best", &num(r.best_bias, 2)),
            ("cost", &format::grouped_in(r.bias_cost, 2, lang)),
        ],
    );
    if let Some(el) = doc.get_element_by_id("two-answer") {
        let (price, verdict) = readout::friend(p);
        let template = el.get_attribute("data-template").unwrap_or_default();
        let verdicts = el.get_attribute("data-verdicts").unwrap_or_default();
        let said = verdicts.split('|').nth(verdict).unwrap_or_default();
        let line = fill(
            &template,
            &[
                ("price", &format::grouped_in(price, 1, lang)),
                ("verdict", said),
            ],
        );
        el.set_text_content(Some(&line));
    }
    text(doc, "dg-w1", &num(p[0], 5));
    text(doc, "dg-w2", &num(p[1], 2));
    text(doc, "dg-b", &num(p[2], 2));
    text(
        doc,
        "dg-out",
        &format::grouped_in(r.predictions[0], 1, lang),
    );
    for (i, (e, pred)) in LESSON.examples.iter().zip(&r.predictions).enumerate() {
        text(
            doc,
            &format!("pred-{i}"),
            &format::grouped_in(*pred, 1, lang),
        );
        text(
            doc,
            &format!("res-{i}"),
            &format::grouped_in(e.target - pred, 1, lang),
        );
    }
}

/// The map's view buttons: near the goal, or Jay's whole ranges.
pub(crate) fn switch_view(doc: &Document, ev: &web_sys::Event) {
    let Some(button) = ev
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .and_then(|el| el.closest("[data-view]").ok().flatten())
    else {
        return;
    };
    let view = button.get_attribute("data-view").unwrap_or_default();
    if let Some(map) = doc.get_element_by_id("two-map") {
        // The server writes both views' `viewBox`es as data.
        let name = if view == "all" {
            "data-all"
        } else {
            "data-near"
        };
        let _ = map.set_attribute("viewBox", &map.get_attribute(name).unwrap_or_default());
    }
    for name in ["near", "all"] {
        let pressed = if name == view { "true" } else { "false" };
        attr(doc, &format!("view-{name}"), "aria-pressed", pressed);
    }
}

/// A point's place on the map, as the trail's and the lab path's `points`
/// write it.
pub(crate) fn map_point(p: &[f64]) -> String {
    let (x, y) = readout::map_xy(p[0], p[1]);
    format!("{x:.3},{y:.3}")
}
