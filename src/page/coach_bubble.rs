//! The speech bubble: after each attempt it asks the coach (`POST /api/comment`,
//! the same service as `GET /error`), shows a typing state, then
//! the comment with a small label naming the model, and two buttons that say
//! whether it helped (`POST /api/feedback`, [`votes`]).
//!
//! The calls are made by [`crate::page::coach_bubble::request`]. Only the latest attempt
//! matters, so a new attempt aborts the call still under way for an older
//! one: the browser cancels that fetch (the server then does not charge it to
//! the visitor's rate limit), and its answer can never reach the bubble. Quick
//! key presses thus cost one comment, not one each.
//!
//! The coach sees the current run (the attempts since the last start over, see
//! [`crate::page::model`]): a start over empties it, so the bubble drops its comment
//! (and any call under way) and waits, as on arrival, for the next attempt.

pub mod request;
pub(crate) mod votes;

use leptos::prelude::*;

use crate::page::{
    coach_bubble::request::{Question, Said},
    controls::language::use_texts,
    model::{run_start, Attempt, Model},
};
use vocabulary::Lang;

/// The question about a run's latest attempt: its point and error, its
/// number in the visit (the run begins after `before` attempts), and the
/// run's earlier errors (at most 100, oldest first); `None` for an empty run.
fn question(run: &[Attempt], before: usize, lang: Lang) -> Option<Question> {
    let (current, earlier) = run.split_last()?;
    // The weight and bias too: the coach states facts about the point.
    Some(Question {
        error: current.error,
        number: before + run.len(),
        attempts: earlier
            .iter()
            .skip(earlier.len().saturating_sub(100))
            .map(|a| a.error)
            .collect(),
        weight: current.params.weight,
        bias: current.params.bias,
        lang,
    })
}

#[derive(Clone, Debug, PartialEq)]
// Only the browser gets answers (the server renders `Waiting`).
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
enum Bubble {
    /// Nothing asked yet.
    Waiting,
    Typing,
    Said(Said),
    /// The call failed: a friendly line, never the raw error.
    Failed,
}

#[component]
pub fn CoachBubble(model: Model) -> impl IntoView {
    // The coach answers in the page's language.
    let t = use_texts();
    let page = t.lang;
    let bubble = RwSignal::new(Bubble::Waiting);

    // Effects run only in the browser, after hydration.
    Effect::new(move |previous_len: Option<usize>| {
        let before = previous_len.unwrap_or(0);
        let from = model.starts.with(|s| run_start(s));
        let (len, question) = model.attempts.with(|all| {
            let run = all.get(from..).unwrap_or_default();
            let len = run.len();
            (
                len,
                if len > before {
                    question(run, from, page)
                } else {
                    None
                },
            )
        });
        if len < before {
            // A start over: nothing said so far is about this run.
            call::abort_in_flight();
            votes::show(None);
            bubble.set(Bubble::Waiting);
        } else if let Some(question) = question {
            bubble.set(Bubble::Typing);
            call::start(question, bubble);
        }
        len
    });
    on_cleanup(call::abort_in_flight);

    // The comment's own language, so a screen reader speaks it right even if
    // a caller asked for another one than the page's.
    let lang = move || match bubble.get() {
        Bubble::Said(c) => c.lang.html_tag(),
        _ => page.html_tag(),
    };
    let text = move || match bubble.get() {
        Bubble::Waiting => t.waiting.to_string(),
        Bubble::Typing => String::new(),
        Bubble::Said(c) => c.comment,
        Bubble::Failed => t.resting.to_string(),
    };
    let label = move || match bubble.get() {
        Bubble::Said(c) if c.limited => Some(t.offline_resting.to_string()),
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
                <div
                    class="votes idle"
                    role="group"
                    aria-label=t.vote_question
                    data-testid="coach-votes"
                    on:click=votes::clicked
                    inner_html=crate::server_only!(votes::buttons(t))
                ></div>
            </div>
        </aside>
    }
}

/// The call under way (one per page: the latest attempt's).
#[cfg(feature = "hydrate")]
mod call {
    use std::cell::RefCell;

    use leptos::{prelude::*, task::spawn_local};

    use super::{Bubble, Question};
    use crate::page::coach_bubble::request::{ask, NoAnswer};

    thread_local! {
        static IN_FLIGHT: RefCell<Option<web_sys::AbortController>> = const { RefCell::new(None) };
    }

    /// Cancels the call under way, if any.
    pub fn abort_in_flight() {
        if let Some(controller) = IN_FLIGHT.with(|c| c.borrow_mut().take()) {
            controller.abort();
        }
    }

    /// Cancels the call under way and asks `question`; its answer goes to `bubble`.
    pub fn start(question: Question, bubble: RwSignal<Bubble>) {
        abort_in_flight();
        super::votes::show(None);
        let Ok(controller) = web_sys::AbortController::new() else {
            bubble.set(Bubble::Failed);
            return;
        };
        let signal = controller.signal();
        IN_FLIGHT.with(|c| *c.borrow_mut() = Some(controller));
        spawn_local(async move {
            let shown = match ask(&question, &signal).await {
                Ok(said) => Bubble::Said(said),
                // A newer call has the bubble.
                Err(NoAnswer::Aborted) => return,
                Err(NoAnswer::Failed) => Bubble::Failed,
            };
            if !signal.aborted() {
                if let Bubble::Said(said) = &shown {
                    super::votes::show(said.id.clone());
                }
                // `try_`: never a panic if the component is already gone.
                bubble.try_set(shown);
            }
        });
    }
}

/// The server renders no call (effects never run there).
#[cfg(not(feature = "hydrate"))]
mod call {
    use leptos::prelude::RwSignal;

    use super::{Bubble, Question};

    pub fn abort_in_flight() {}

    pub fn start(_: Question, _: RwSignal<Bubble>) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use lesson::neuron::Params;

    fn at(error: f64) -> Attempt {
        Attempt {
            params: Params::new(0.1, error),
            error,
        }
    }

    #[test]
    fn the_question_is_about_the_runs_latest_attempt_and_its_earlier_errors() {
        assert_eq!(
            question(&[], 3, Lang::En),
            None,
            "a start over: nothing to ask"
        );
        let q = question(&[at(1.0)], 0, Lang::Pt).expect("one attempt");
        assert!(q.attempts.is_empty() && q.error == 1.0 && q.bias == 1.0);
        assert_eq!(q.number, 1);
        assert_eq!(q.lang, Lang::Pt);
        let long: Vec<Attempt> = (0..150).map(|i| at(f64::from(i))).collect();
        let q = question(&long, 0, Lang::En).expect("a long run");
        assert_eq!(q.error, 149.0);
        assert_eq!(
            q.number, 150,
            "every attempt counted, not only the 100 sent"
        );
        assert_eq!(q.attempts.len(), 100);
        assert_eq!((q.attempts[0], q.attempts[99]), (49.0, 148.0));
    }

    #[test]
    fn after_a_start_over_the_visit_goes_on_counting() {
        // Seven attempts, a start over, then the new run's second one: the
        // ninth of the visit (the insights key attempts by their number).
        let q = question(&[at(900.0), at(800.0)], 7, Lang::En).expect("a run");
        assert_eq!(q.number, 9);
        assert_eq!(q.attempts, vec![900.0]);
    }
}
