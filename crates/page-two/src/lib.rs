//! `/two` in the browser: a controller over the server's markup. It reads
//! the controls, recomputes [`Readout`] on every tick of a slider, and
//! writes the numbers, lines, dots and sentences back into the elements the
//! server wrote (found by id); the words come from the elements' `data-*`
//! templates, the numbers are formatted as on the server.
//!
//! An attempt is one intention, as in lesson 1: a release, a typed value, a
//! press of a button, or a burst of keys once it has settled
//! ([`SETTLE_MS`]); each is added to the trail and the ladder and written
//! into the address bar (`?w1=&w2=&b=`).
//!
//! [`start`] is the page's entry point, called by the module script the
//! server writes into `/two` (`.ci/page-two` builds this crate into
//! `public/bundles/`). No Leptos here: lesson 1's bundle stays as it was,
//! and this one is a few dozen KB.

use std::{cell::RefCell, rc::Rc};

use wasm_bindgen::{prelude::wasm_bindgen, JsCast};
use web_sys::{Document, Element};

use lesson::two_view::{self as readout, Readout, LESSON};
use vocabulary::{format, Lang};

mod attempt;
mod coach;
mod dom;
mod draw;
mod frame;
mod lab;

use attempt::{commit, commit_soon};
use dom::{input, listen, on, target_value};
use draw::{render, switch_view};

/// How long after the last key press a burst of presses is recorded.
pub(crate) const SETTLE_MS: i32 = 600;

pub(crate) struct State {
    doc: Document,
    lang: Lang,
    point: [f64; 3],
    /// The point last recorded: moving back to it is no attempt.
    settled: [f64; 3],
    best: Option<f64>,
    trail: String,
    pending: Option<i32>,
    /// The errors of the run (since the last start over), oldest first.
    run: Vec<f64>,
    /// The visit's attempts so far, every run counted (for the insights).
    attempts: usize,
    /// The coach's call under way.
    call: Option<web_sys::AbortController>,
    /// The lab's run, once stepped.
    lab: Option<lesson::lab::Run>,
}

pub(crate) type Shared = Rc<RefCell<State>>;

/// Wires the page up, once its markup is there.
#[wasm_bindgen]
pub fn start() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let lang = doc
        .document_element()
        .and_then(|html| html.get_attribute("lang"))
        .and_then(|tag| Lang::parse(&tag))
        .unwrap_or_default();
    let mut point = [0.0; 3];
    for (i, p) in LESSON.params.iter().enumerate() {
        point[i] = input(&doc, p.key)
            .and_then(|el| el.value().parse().ok())
            .unwrap_or(p.start);
    }
    let state = Rc::new(RefCell::new(State {
        doc: doc.clone(),
        lang,
        point,
        settled: point,
        best: None,
        trail: String::new(),
        pending: None,
        run: Vec::new(),
        attempts: 0,
        call: None,
        lab: None,
    }));
    for i in 0..LESSON.params.len() {
        wire_param(&state, i);
    }
    on(&doc, "best-bias", "click", {
        let state = state.clone();
        move |_| {
            let best = Readout::at(state.borrow().point).best_bias;
            set(&state, 2, readout::on_grid(2, best));
            commit(&state);
        }
    });
    on(&doc, "start-over", "click", {
        let state = state.clone();
        move |_| {
            for (i, p) in LESSON.params.iter().enumerate() {
                set(&state, i, p.start);
            }
            let mut guard = state.borrow_mut();
            let s = &mut *guard;
            s.settled = s.point;
            // A new run: the coach judges it on its own.
            s.run.clear();
            coach::wait(&s.doc, &mut s.call);
        }
    });
    on(&doc, "two-controls", "submit", |ev| ev.prevent_default());
    if let Some(views) = doc.query_selector(".map-views").ok().flatten() {
        listen(&views, "click", {
            let doc = doc.clone();
            move |ev| switch_view(&doc, &ev)
        });
    }
    if let Some(group) = doc.get_element_by_id("two-votes") {
        listen(&group, "click", {
            let doc = doc.clone();
            move |ev| coach::voted(&doc, &ev)
        });
    }
    wire_lab(&state);
    // The phone's strip shows the whole comment only when asked.
    on(&doc, "two-live-more", "click", {
        let doc = doc.clone();
        move |_| {
            if let Some(live) = doc.query_selector(".live").ok().flatten() {
                let open = live.class_list().toggle("open").unwrap_or(false);
                let more = doc.get_element_by_id("two-live-more");
                if let Some(more) = more {
                    let _ =
                        more.set_attribute("aria-expanded", if open { "true" } else { "false" });
                }
            }
        }
    });
    frame::post_heights();
    render(&state.borrow());
    if let Some(root) = doc.document_element() {
        let _ = root.set_attribute("data-hydrated", "true");
    }
}

/// A parameter's slider, number box and nudges.
fn wire_param(state: &Shared, i: usize) {
    let doc = state.borrow().doc.clone();
    let key = LESSON.params[i].key;
    let Some(slider) = input(&doc, key) else {
        return;
    };
    listen(&slider, "input", {
        let state = state.clone();
        move |ev| {
            if let Some(v) = target_value(&ev).and_then(|v| v.parse().ok()) {
                set(&state, i, v);
            }
        }
    });
    // A release records now; a keyboard's burst once it settles.
    let keyed = Rc::new(RefCell::new(false));
    listen(&slider, "keydown", {
        let keyed = keyed.clone();
        move |_| *keyed.borrow_mut() = true
    });
    listen(&slider, "pointerdown", {
        let keyed = keyed.clone();
        move |_| *keyed.borrow_mut() = false
    });
    listen(&slider, "change", {
        let state = state.clone();
        move |_| {
            if keyed.replace(false) {
                commit_soon(&state);
            } else {
                commit(&state);
            }
        }
    });
    if let Some(number) = input(&doc, &format!("{key}-number")) {
        listen(&number, "change", {
            let state = state.clone();
            move |ev| {
                let lang = state.borrow().lang;
                let p = LESSON.params[i];
                match target_value(&ev).and_then(|t| format::parse_decimal(&t, lang)) {
                    Some(v) => {
                        set(&state, i, v.clamp(p.min, p.max));
                        commit(&state);
                    }
                    // Not a number: show the value again.
                    None => render(&state.borrow()),
                }
            }
        });
        listen(&number, "keydown", {
            let state = state.clone();
            move |ev| {
                let Some(key) = ev.dyn_ref::<web_sys::KeyboardEvent>().map(|k| k.key()) else {
                    return;
                };
                let step = LESSON.params[i].step;
                let by = match key.as_str() {
                    "ArrowUp" => step,
                    "ArrowDown" => -step,
                    "PageUp" => readout::COARSE[i],
                    "PageDown" => -readout::COARSE[i],
                    _ => return,
                };
                ev.prevent_default();
                let now = state.borrow().point[i];
                set(&state, i, readout::on_grid(i, now + by));
                commit_soon(&state);
            }
        });
    }
    if let Some(nudges) = doc
        .query_selector(&format!("[data-for=\"{i}\"]"))
        .ok()
        .flatten()
    {
        listen(&nudges, "click", {
            let state = state.clone();
            move |ev| {
                let by = ev
                    .target()
                    .and_then(|t| t.dyn_into::<Element>().ok())
                    .and_then(|el| el.closest("[data-nudge]").ok().flatten())
                    .and_then(|b| b.get_attribute("data-nudge"))
                    .and_then(|v| v.parse::<f64>().ok());
                if let Some(by) = by {
                    let now = state.borrow().point[i];
                    set(&state, i, readout::on_grid(i, now + by));
                    commit(&state);
                }
            }
        });
    }
}

/// Moves parameter `i` to `v` and redraws.
pub(crate) fn set(state: &Shared, i: usize, v: f64) {
    state.borrow_mut().point[i] = v;
    render(&state.borrow());
}

/// The lab's buttons and choices.
fn wire_lab(state: &Shared) {
    let doc = state.borrow().doc.clone();
    if let Some(buttons) = doc.query_selector(".lab-buttons").ok().flatten() {
        listen(&buttons, "click", {
            let state = state.clone();
            move |ev| lab::stepped(&state, &ev)
        });
    }
    on(&doc, "lab-reset", "click", {
        let state = state.clone();
        move |_| lab::reset(&state)
    });
    on(&doc, "lab-apply", "click", {
        let state = state.clone();
        move |_| {
            if let Some(p) = lab::point(&state) {
                for (i, v) in p.into_iter().enumerate() {
                    set(&state, i, v);
                }
                commit(&state);
            }
        }
    });
    if let Some(section) = doc.query_selector(".two-lab").ok().flatten() {
        listen(&section, "change", {
            let state = state.clone();
            move |_| lab::reset(&state)
        });
    }
}
