//! An attempt: recorded now (a release, a typed value, a button) or once a
//! burst of keys settles; what it changes (the ladder, the live sentence,
//! the trail, the address bar and the language links).

use wasm_bindgen::{closure::Closure, JsCast};

use crate::{
    coach,
    dom::{attr, fill_template},
    draw::map_point,
    Shared, State, SETTLE_MS,
};
use lesson::two_view::{self as readout, LESSON};
use vocabulary::{format, Lang};

/// Records the point as an attempt, unless nothing moved since the last.
pub(crate) fn commit(state: &Shared) {
    let mut guard = state.borrow_mut();
    let s = &mut *guard;
    cancel_pending(s);
    if s.point == s.settled {
        return;
    }
    s.settled = s.point;
    let error = LESSON.error(&s.point);
    s.best = Some(s.best.map_or(error, |b: f64| b.min(error)));
    s.trail.push_str(&map_point(&s.point));
    s.trail.push(' ');
    s.attempts += 1;
    let asked = coach::Asked {
        point: s.point,
        error,
        number: s.attempts,
    };
    coach::ask(&s.doc, &mut s.call, asked, &s.run, s.lang);
    s.run.push(error);
    drop(guard);
    let s = state.borrow();
    attempted(&s, error);
}

/// Records the point [`SETTLE_MS`] after the last call.
pub(crate) fn commit_soon(state: &Shared) {
    let Some(window) = web_sys::window() else {
        return;
    };
    cancel_pending(&mut state.borrow_mut());
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

/// Drops the recording a burst of keys has pending, if any.
fn cancel_pending(s: &mut State) {
    if let (Some(id), Some(window)) = (s.pending.take(), web_sys::window()) {
        window.clear_timeout_with_handle(id);
    }
}

/// What changes with an attempt: the ladder, the best, the trail, the link.
fn attempted(s: &State, error: f64) {
    let best = s.best.unwrap_or(f64::INFINITY);
    let reached = readout::rungs_reached(best);
    for i in 0..LESSON.ladder.len() {
        if let Some(li) = s.doc.get_element_by_id(&format!("rung-{i}")) {
            let _ = li.class_list().toggle_with_force("reached", i < reached);
        }
    }
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
