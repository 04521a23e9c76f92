//! The gradient descent lab in the browser: a [`Run`] of `lesson::lab`,
//! made from the chosen scheme and start when first stepped (and again after
//! a change of either, or Reset), stepped 1, 10 or 100 at a time; its
//! readout, status, loss chart and its path on the map. "Move my model to
//! the lab's point" puts the lab's point on the sliders as one attempt.

use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlInputElement};

use crate::{
    dom::{attr, text},
    draw::map_point,
    Shared,
};
use lesson::{
    lab::{Run, Scheme, JAYS_RATES_TWO},
    two_view::{self as readout, loss_x, loss_y, LESSON},
};
use vocabulary::{fill, format, Lang};

/// The scheme's name (`data-stalled-<name>`) and its rule.
fn scheme(doc: &Document) -> (&'static str, Scheme) {
    match checked(doc, "lab-scheme").as_deref() {
        Some("standard") => ("standard", Scheme::Standardised(0.1)),
        Some("raw") => ("raw", Scheme::Raw(2e-7)),
        _ => ("jay", Scheme::PerParameter(JAYS_RATES_TWO.to_vec())),
    }
}

fn checked(doc: &Document, name: &str) -> Option<String> {
    let el = doc
        .query_selector(&format!("input[name=\"{name}\"]:checked"))
        .ok()??;
    Some(el.dyn_into::<HtmlInputElement>().ok()?.value())
}

/// A fresh run from the chosen start (the model's point, or 0, 0, 0).
fn fresh(doc: &Document, model: [f64; 3]) -> Run {
    let start = if checked(doc, "lab-start").as_deref() == Some("model") {
        model
    } else {
        [0.0; 3]
    };
    Run::new(LESSON, scheme(doc).1, &start)
}

/// A click on a step button: steps the run (making it first if need be).
pub(crate) fn stepped(state: &Shared, ev: &web_sys::Event) {
    let steps = ev
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .and_then(|el| el.closest("[data-steps]").ok().flatten())
        .and_then(|b| b.get_attribute("data-steps"))
        .and_then(|n| n.parse::<usize>().ok());
    let Some(steps) = steps else { return };
    let mut s = state.borrow_mut();
    let (doc, model, lang) = (s.doc.clone(), s.point, s.lang);
    let mut path = String::new();
    let run = s.lab.get_or_insert_with(|| {
        let run = fresh(&doc, model);
        path = map_point(&run.point);
        run
    });
    if path.is_empty() {
        path = doc
            .get_element_by_id("lab-path")
            .and_then(|p| p.get_attribute("points"))
            .unwrap_or_default();
    }
    // Each step's point, for the path on the map.
    for _ in 0..steps {
        run.step(1);
        path.push(' ');
        path.push_str(&map_point(&run.point));
    }
    attr(&doc, "lab-path", "points", &path);
    draw(&doc, run, lang);
}

/// Reset, or a new scheme or start: the next step starts a new run.
pub(crate) fn reset(state: &Shared) {
    let mut s = state.borrow_mut();
    s.lab = None;
    let doc = s.doc.clone();
    let ready = doc
        .get_element_by_id("lab-status")
        .and_then(|e| e.get_attribute("data-ready"))
        .unwrap_or_default();
    text(&doc, "lab-status", &ready);
    text(&doc, "lab-readout", "");
    attr(&doc, "lab-loss", "points", "");
    attr(&doc, "lab-path", "points", "");
}

/// The lab's point, on the sliders' grid (`None` before a run).
pub(crate) fn point(state: &Shared) -> Option<[f64; 3]> {
    let s = state.borrow();
    let p = &s.lab.as_ref()?.point;
    Some([0, 1, 2].map(|i| readout::on_grid(i, p[i])))
}

fn draw(doc: &Document, run: &Run, lang: Lang) {
    let num = |v: f64, d: usize| format::localise(format::plain(v, d), lang);
    let p = &run.point;
    let status_of = |name: &str| {
        doc.get_element_by_id("lab-status")
            .and_then(|e| e.get_attribute(name))
            .unwrap_or_default()
    };
    if let Some(el) = doc.get_element_by_id("lab-readout") {
        let template = el.get_attribute("data-template").unwrap_or_default();
        let line = fill(
            &template,
            &[
                ("step", &run.steps().to_string()),
                ("w1", &num(p[0], 5)),
                ("w2", &num(p[1], 2)),
                ("b", &num(p[2], 2)),
                ("error", &format::grouped_in(run.error(), 2, lang)),
            ],
        );
        el.set_text_content(Some(&line));
    }
    let status = if let Some(at) = run.diverged {
        fill(&status_of("data-diverged"), &[("step", &at.to_string())])
    } else if let Some(at) = run.reached(LESSON.goal) {
        fill(&status_of("data-goal"), &[("at", &at.to_string())])
    } else if run.stalled(LESSON.goal) {
        status_of(&format!("data-stalled-{}", scheme(doc).0))
    } else {
        status_of("data-ready")
    };
    text(doc, "lab-status", &status);
    // The chart: at most 300 points, spread over the run.
    let n = run.errors.len();
    let every = n.div_ceil(300).max(1);
    let loss: String = run
        .errors
        .iter()
        .enumerate()
        .filter(|(i, _)| i % every == 0 || *i + 1 == n)
        .map(|(i, e)| format!("{:.1},{:.1} ", loss_x(i, n - 1), loss_y(*e)))
        .collect();
    attr(doc, "lab-loss", "points", loss.trim_end());
}
