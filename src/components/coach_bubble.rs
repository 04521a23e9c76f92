//! The speech bubble: after each attempt it asks the coach (the `get_comment`
//! server function, the same service as `GET /error`), shows a typing state, then
//! the comment with a small label naming the model.
//!
//! The requests go through a Leptos [`ServerAction`]. Only the latest attempt
//! matters, so a new attempt aborts the request still under way for an older
//! one: the browser cancels that fetch (the server then does not charge it to
//! the visitor's rate limit), and its answer can never reach the bubble. Quick
//! key presses thus cost one comment, not one each.

use leptos::prelude::*;

use super::{language::use_texts, model::Attempt};
use crate::{
    coach::{api::GetComment, Comment},
    i18n::html_tag,
};

#[derive(Clone, Debug, PartialEq)]
enum Bubble {
    /// Nothing asked yet.
    Waiting,
    Typing,
    Said(Comment),
    /// The request failed: a friendly line, never the raw error.
    Failed,
}

#[component]
pub fn CoachBubble(#[prop(into)] attempts: Signal<Vec<Attempt>>) -> impl IntoView {
    let ask = ServerAction::<GetComment>::new();
    // The coach answers in the page's language.
    let t = use_texts();
    let page = t.lang;
    let (pending, answer) = (ask.pending(), ask.value());
    // The abort handle of the request under way, if any.
    let in_flight = StoredValue::new(None::<ActionAbortHandle>);
    // `try_`: never a panic if the component is already gone.
    let abort_in_flight = move || {
        if let Some(handle) = in_flight.try_update_value(Option::take).flatten() {
            handle.abort();
        }
    };

    // Effects run only in the browser, after hydration.
    Effect::new(move |previous_len: Option<usize>| {
        let all = attempts.get();
        let len = all.len();
        if len > previous_len.unwrap_or(0) {
            let current = all[len - 1];
            let earlier: Vec<f64> = all[..len - 1]
                .iter()
                .rev()
                .take(100)
                .rev()
                .map(|a| a.error)
                .collect();
            abort_in_flight();
            // The weight and bias too: the coach states facts about the point.
            let handle = ask.dispatch(GetComment {
                error: current.error,
                attempts: earlier,
                weight: Some(current.params.weight),
                bias: Some(current.params.bias),
                lang: Some(page),
            });
            in_flight.try_set_value(Some(handle));
        }
        len
    });
    on_cleanup(abort_in_flight);

    let bubble = Memo::new(move |_| {
        if pending.get() {
            return Bubble::Typing;
        }
        match answer.get() {
            None => Bubble::Waiting,
            Some(Ok(comment)) => Bubble::Said(comment),
            Some(Err(_)) => Bubble::Failed,
        }
    });

    // The comment's own language, so a screen reader speaks it right even if
    // a caller asked for another one than the page's.
    let lang = move || match bubble.get() {
        Bubble::Said(c) => html_tag(c.lang),
        _ => html_tag(page),
    };
    let text = move || match bubble.get() {
        Bubble::Waiting => t.waiting.to_string(),
        Bubble::Typing => String::new(),
        Bubble::Said(c) => c.comment,
        Bubble::Failed => t.resting.to_string(),
    };
    let label = move || match bubble.get() {
        Bubble::Said(c) if c.limited.is_some() => Some(t.offline_resting.to_string()),
        Bubble::Said(c) if c.fallback => Some(t.offline.to_string()),
        Bubble::Said(c) => Some(format!("{} · {}", c.model, c.provider)),
        _ => None,
    };
    let typing = move || bubble.with(|b| *b == Bubble::Typing);
    let state = move || match bubble.get() {
        Bubble::Waiting => "waiting",
        Bubble::Typing => "typing",
        Bubble::Said(_) => "said",
        Bubble::Failed => "failed",
    };

    view! {
        <aside class="coach" aria-label=t.coach>
            <div class="bubble" class:typing=typing data-testid="coach-bubble" data-state=state aria-live="polite">
                <span class="dots" aria-hidden="true">
                    <span></span>
                    <span></span>
                    <span></span>
                </span>
                <p class="bubble-text" data-testid="coach-text" lang=lang>{text}</p>
                <p class="bubble-label" data-testid="coach-model">{label}</p>
            </div>
        </aside>
    }
}
