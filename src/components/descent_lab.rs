//! The gradient descent lab: Step, ×10, Play/Pause and Reset over the math of
//! [`crate::descent`], a learning rate on a log scale and a "standardise the area"
//! toggle. The run's path is drawn on the landscape (the simulator hands the same
//! signal to both); the loss-over-steps chart is [`super::loss_chart`].
//!
//! The lab does not move the page's model while it runs (that would be an attempt
//! per step): a run starts from the model's point (Reset, or changing the scaling)
//! and "Move the model here" records its latest point as one attempt.
//! Play takes a step every 150 ms and stops itself at the goal, on divergence or
//! after [`MAX_STEPS`]; with `prefers-reduced-motion` it does not animate, it takes
//! those steps at once.

use leptos::prelude::*;

use super::{language::use_texts, loss_chart::LossChart};
use crate::{
    descent::{Descent, Scaling, Status, LEARNING_RATES},
    format::localise,
    i18n::{fill, Texts},
    neuron::{reaches_goal, Params, GOAL},
};

/// Play stops after this many steps (raw areas crawl for ever).
pub const MAX_STEPS: usize = 1000;

/// A rate as people write it: `2e-7`, `0.1`, `1`.
#[must_use]
pub fn rate_label(rate: f64) -> String {
    if rate < 1e-3 {
        format!("{rate:e}")
    } else {
        crate::format::plain(rate, 3)
    }
}

/// The index of `rate` in [`LEARNING_RATES`] (the nearest on the log scale).
#[must_use]
pub fn rate_index(rate: f64) -> usize {
    LEARNING_RATES
        .iter()
        .enumerate()
        .min_by(|a, b| {
            let d = |r: f64| (r.log10() - rate.log10()).abs();
            d(*a.1).total_cmp(&d(*b.1))
        })
        .map_or(0, |(i, _)| i)
}

/// Whether Play has nothing more to do.
fn finished(d: &Descent) -> bool {
    matches!(d.status, Status::Diverged { .. })
        || d.losses.last().is_some_and(|&l| reaches_goal(l))
        || d.path.len() > MAX_STEPS
}

/// What the lab says about its run: never a NaN, divergence is a state.
#[must_use]
pub fn status_text(t: &Texts, d: &Descent) -> String {
    let steps = d.path.len().saturating_sub(1).to_string();
    match (d.status, d.losses.last()) {
        (Status::Diverged { step }, _) => fill(
            t.diverged,
            &[
                ("step", &step.to_string()),
                ("rate", &localise(rate_label(d.rate), t.lang)),
                (
                    "scaling",
                    match d.scaling {
                        Scaling::Raw => t.raw,
                        Scaling::Standardised => t.standardised,
                    },
                ),
                (
                    "limit",
                    &localise(limit_label(d.scaling.max_stable_rate()), t.lang),
                ),
            ],
        ),
        (Status::Running, Some(&loss)) => {
            let error = t.num(loss, 2);
            match d.first_step_at_or_below(GOAL) {
                Some(at) => fill(
                    t.goal_at,
                    &[
                        ("at", &at.to_string()),
                        ("steps", &steps),
                        ("error", &error),
                    ],
                ),
                None => fill(t.stepped, &[("steps", &steps), ("error", &error)]),
            }
        }
        (Status::Running, None) => t.no_run.to_string(),
    }
}

/// A stable-rate limit with three significant digits: `2.35e-7`, `1`.
fn limit_label(rate: f64) -> String {
    if rate < 1e-3 {
        format!("{rate:.2e}")
    } else {
        crate::format::plain(rate, 2)
    }
}

/// Whether the visitor asked for reduced motion (never on the server).
fn reduced_motion() -> bool {
    #[cfg(feature = "hydrate")]
    {
        use js_sys::{Function, Reflect};
        use wasm_bindgen::JsCast;
        let window = window();
        let query = Reflect::get(&window, &"matchMedia".into())
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
            .and_then(|f| {
                f.call1(&window, &"(prefers-reduced-motion: reduce)".into())
                    .ok()
            });
        query
            .and_then(|q| Reflect::get(&q, &"matches".into()).ok())
            .and_then(|m| m.as_bool())
            .unwrap_or(false)
    }
    #[cfg(not(feature = "hydrate"))]
    false
}

#[component]
pub fn DescentLab(
    params: Memo<Params>,
    descent: RwSignal<Descent>,
    /// Moves the model and records one attempt.
    jump: Callback<Params>,
) -> impl IntoView {
    let t = use_texts();
    let playing = RwSignal::new(false);
    let timer = StoredValue::new(None::<IntervalHandle>);
    // `try_` forms: this also runs as the component is cleaned up, when the
    // signals may already be gone.
    let stop = move || {
        let _ = playing.try_set(false);
        if let Some(Some(handle)) = timer.try_update_value(Option::take) {
            handle.clear();
        }
    };
    on_cleanup(stop);
    let restart = move |scaling: Scaling, rate: f64| {
        stop();
        descent.set(Descent::new(params.get_untracked(), rate, scaling));
    };
    let advance = move |n: usize| descent.update(|d| _ = d.advance(n));
    let play = move || {
        if playing.get_untracked() {
            stop();
            return;
        }
        if reduced_motion() {
            descent.update(|d| {
                while !finished(d) {
                    d.advance(1);
                }
            });
            return;
        }
        if descent.with_untracked(finished) {
            return;
        }
        playing.set(true);
        let tick = move || {
            descent.update(|d| _ = d.advance(1));
            if descent.with_untracked(finished) {
                stop();
            }
        };
        if let Ok(handle) = set_interval_with_handle(tick, std::time::Duration::from_millis(150)) {
            timer.set_value(Some(handle));
        } else {
            playing.set(false);
        }
    };
    let on_button = move |e: leptos::ev::MouseEvent| {
        let action = event_target::<leptos::web_sys::Element>(&e)
            .closest("button")
            .ok()
            .flatten()
            .and_then(|b| b.get_attribute("data-testid"));
        match action.as_deref() {
            Some("gd-step") => advance(1),
            Some("gd-step10") => advance(10),
            Some("gd-play") => play(),
            Some("gd-reset") => {
                let d = descent.get_untracked();
                restart(d.scaling, d.rate);
            }
            Some("gd-apply") => {
                if let Some(p) = descent.with_untracked(Descent::current) {
                    jump.run(p.clamped_to_sliders());
                }
            }
            _ => {}
        }
    };
    let rate = move || descent.with(|d| d.rate);
    let rate_text = move || localise(rate_label(rate()), t.lang);
    let standard_steps = crate::descent::run(crate::neuron::START, 0.1, Scaling::Standardised, 100)
        .first_step_at_or_below(GOAL)
        .map_or_else(|| t.few_dozen.to_string(), |n| n.to_string());
    let lesson = fill(
        t.lesson,
        &[
            (
                "limit",
                &localise(limit_label(Scaling::Raw.max_stable_rate()), t.lang),
            ),
            ("steps", &standard_steps),
        ],
    );

    view! {
        <section class="panel descent-lab" aria-labelledby="descent-title" data-testid="descent-lab">
            <h2 id="descent-title">{t.descent}</h2>
            <p class="lesson" data-testid="descent-lesson">
                {lesson}
            </p>
            <div class="descent-settings">
                <label class="toggle">
                    <input
                        type="checkbox"
                        id="gd-standardise"
                        data-testid="gd-standardise"
                        on:change=move |e| {
                            let scaling = if event_target_checked(&e) {
                                Scaling::Standardised
                            } else {
                                Scaling::Raw
                            };
                            restart(scaling, scaling.default_rate());
                        }
                    />
                    {t.standardise}
                </label>
                <label for="gd-rate">{t.rate}</label>
                <input
                    type="range"
                    id="gd-rate"
                    data-testid="gd-rate"
                    min="0"
                    max=(LEARNING_RATES.len() - 1).to_string()
                    step="1"
                    prop:value=move || rate_index(rate()).to_string()
                    aria-valuetext=rate_text
                    on:input=move |e| {
                        let chosen = event_target_value(&e)
                            .parse::<usize>()
                            .ok()
                            .and_then(|i| LEARNING_RATES.get(i).copied());
                        if let Some(r) = chosen {
                            descent.update(|d| d.rate = r);
                        }
                    }
                />
                <output for="gd-rate" data-testid="gd-rate-value">{rate_text}</output>
            </div>
            // One click handler for the five buttons (each handler would be code of
            // its own in the WASM): the button's data-testid names its action.
            <div class="descent-buttons" role="group" aria-label=t.run on:click=on_button>
                <button type="button" data-testid="gd-step">{t.step}</button>
                <button type="button" data-testid="gd-step10">"×10"</button>
                <button type="button" data-testid="gd-play" aria-pressed=move || playing.get().to_string()>
                    {move || if playing.get() { t.pause } else { t.play }}
                </button>
                <button type="button" data-testid="gd-reset">{t.reset}</button>
                <button type="button" data-testid="gd-apply">{t.apply}</button>
            </div>
            <p class="descent-status" data-testid="gd-status" role="status">
                {move || descent.with(|d| status_text(t, d))}
            </p>
            <LossChart descent=descent/>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{coach::Lang, i18n::texts};

    fn status_text(d: &Descent) -> String {
        super::status_text(texts(Lang::En), d)
    }

    #[test]
    fn rates_are_written_and_found_on_the_log_scale() {
        assert_eq!(rate_label(2e-7), "2e-7");
        assert_eq!(rate_label(0.1), "0.1");
        assert_eq!(rate_label(1.0), "1");
        assert_eq!(LEARNING_RATES[rate_index(0.1)], 0.1);
        assert_eq!(LEARNING_RATES[rate_index(2.1e-7)], 2e-7);
        assert_eq!(limit_label(Scaling::Raw.max_stable_rate()), "2.35e-7");
    }

    #[test]
    fn the_status_names_the_goal_and_divergence_never_nan() {
        let start = Params::new(0.1, 150.0);
        let good = crate::descent::run(start, 0.1, Scaling::Standardised, 11);
        assert!(
            status_text(&good).starts_with("Goal reached at step 11."),
            "{}",
            status_text(&good)
        );
        assert!(finished(&good));
        let wild = crate::descent::run(start, 1e-6, Scaling::Raw, 200);
        let text = status_text(&wild);
        assert!(text.starts_with("Diverged at step "), "{text}");
        assert!(
            text.contains("stable below 2.35e-7") && !text.contains("NaN"),
            "{text}"
        );
        assert!(finished(&wild));
        let crawl = crate::descent::run(start, 2e-7, Scaling::Raw, 10);
        assert!(status_text(&crawl).starts_with("Step 10: error "));
        assert!(!finished(&crawl));
    }
}
