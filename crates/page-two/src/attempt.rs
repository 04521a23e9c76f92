//! An attempt: recorded now (a release, a typed value, a button) or once a
//! burst of keys settles; what it changes (the ladder, the live sentence,
//! the trail, the address bar and the language links).

use wasm_bindgen::{closure::Closure, JsCast};

use crate::{
    coach,
    dom::{attr, fill_template},
    Shared, State, SETTLE_MS,
};
use lesson::two_view::{self as readout, LESSON};
use vocabulary::{format, Lang};

/// Records the point as an attempt, unless nothing moved since the last.
pub(crate) fn commit(state: &Shared) {
    let mut s = state.borrow_mut();
    if let Some(id) = s.pending.take() {
        if let Some(w) = web_sys::window() {
            w.clear_timeout_with_handle(id);
        }
    }
    if s.point == s.settled {
        return;
    }
    s.settled = s.point;
    let error = LESSON.error(&s.point);
    s.best = Some(s.best.map_or(error, |b: f64| b.min(error)));
    let (x, y) = readout::map_xy(s.point[0], s.point[1]);
    s.trail.push_str(&format!("{x:.3},{y:.3} "));
    let (doc, point, lang) = (s.doc.clone(), s.point, s.lang);
    let earlier = std::mem::take(&mut s.run);
    coach::ask(&doc, &mut s.call, point, error, &earlier, lang);
    s.run = earlier;
    s.run.push(error);
    drop(s);
    let s = state.borrow();
    attempted(&s);
}

/// Records the point [`SETTLE_MS`] after the last call.
pub(crate) fn commit_soon(state: &Shared) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if let Some(id) = state.borrow_mut().pending.take() {
        window.clear_timeout_with_handle(id);
    }
    let later = Closure::once_into_js({
        let state = state.clone();
        move || commit(&state)
    });
    if let Ok(id) = window
        .set_timeout_with_callback_and_timeout_and_arguments_0(later.unchecked_ref(), SETTLE_MS)
    {
        state.borrow_mut().pending = Some(id);
    }
}

/// What changes with an attempt: the ladder, the best, the trail, the link.
fn attempted(s: &State) {
    let best = s.best.unwrap_or(f64::INFINITY);
    let reached = readout::rungs_reached(best);
    for i in 0..LESSON.ladder.len() {
        if let Some(li) = s.doc.get_element_by_id(&format!("rung-{i}")) {
            let _ = li.class_list().toggle_with_force("reached", i < reached);
        }
    }
    let error = LESSON.error(&s.point);
    fill_template(
        &s.doc,
        "two-best",
        &[
            ("error", &format::grouped_in(error, 2, s.lang)),
            ("best", &format::grouped_in(best, 2, s.lang)),
        ],
    );
    attr(&s.doc, "two-trail", "points", s.trail.trim_end());
    let query = |lang: Lang| {
        format!(
            "?w1={}&w2={}&b={}&lang={}",
            format::plain(s.point[0], readout::DECIMALS[0]),
            format::plain(s.point[1], readout::DECIMALS[1]),
            format::plain(s.point[2], readout::DECIMALS[2]),
            lang.code()
        )
    };
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ =
            history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&query(s.lang)));
    }
    for lang in Lang::ALL {
        attr(
            &s.doc,
            &format!("lang-{}", lang.code()),
            "href",
            &query(lang),
        );
    }
}
