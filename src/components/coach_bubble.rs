//! The speech bubble: after each attempt it asks the coach (the `get_comment`
//! server function, the same service as `GET /error`), shows a typing state, then
//! the comment with a small label naming the model.
//!
//! Only the latest attempt's answer is shown: every request carries a sequence
//! number and an answer that arrives after a newer request was sent is dropped.

use leptos::{prelude::*, task::spawn_local};

use super::simulator::Attempt;
use crate::coach::{api::get_comment, Comment};

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
    let bubble = RwSignal::new(Bubble::Waiting);
    let latest = StoredValue::new(0_u64);

    // Effects run only in the browser, after hydration.
    Effect::new(move |previous_len: Option<usize>| {
        let all = attempts.get();
        let len = all.len();
        if len > previous_len.unwrap_or(0) {
            let seq = latest.get_value() + 1;
            latest.set_value(seq);
            bubble.set(Bubble::Typing);
            let current = all[len - 1].error;
            let earlier: Vec<f64> = all[..len - 1]
                .iter()
                .rev()
                .take(100)
                .rev()
                .map(|a| a.error)
                .collect();
            spawn_local(async move {
                let answer = get_comment(current, earlier, None).await;
                if latest.get_value() == seq {
                    bubble.set(answer.map_or(Bubble::Failed, Bubble::Said));
                }
            });
        }
        len
    });

    let text = move || match bubble.get() {
        Bubble::Waiting => "Move a slider and I'll tell you what I think.".to_string(),
        Bubble::Typing => String::new(),
        Bubble::Said(c) => c.comment,
        Bubble::Failed => "The coach is catching its breath. Try another move!".to_string(),
    };
    let label = move || match bubble.get() {
        Bubble::Said(c) if c.limited.is_some() => {
            Some("offline commentator · the models are resting".to_string())
        }
        Bubble::Said(c) if c.fallback => Some("offline commentator".to_string()),
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
        <aside class="coach" aria-label="Coach">
            <div class="bubble" class:typing=typing data-testid="coach-bubble" data-state=state aria-live="polite">
                <span class="dots" aria-hidden="true">
                    <span></span>
                    <span></span>
                    <span></span>
                </span>
                <p class="bubble-text" data-testid="coach-text">{text}</p>
                <p class="bubble-label" data-testid="coach-model">{label}</p>
            </div>
        </aside>
    }
}
