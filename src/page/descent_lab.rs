//! The gradient descent lab: "1 step", "10 steps" and "100 steps" (Jay's three
//! buttons), Play/Pause and Reset over the math of [`lesson::descent`]; a
//! choice of start (w 0, b 0 as Jay's gradient descent starts, Jay's start
//! w 0.1, b 150, or the model's point) and of areas and rates (raw or
//! standardised areas with one rate on a log scale, or Jay's two rates), each
//! explained in a line. The choices are radio buttons the server writes
//! ([`markup`], read back through [`choice`]); the run's path is drawn on the
//! landscape (the simulator hands the same signal to both); the loss-over-steps
//! chart is [`crate::page::descent_lab::loss_chart`]; its words are [`text`]'s.
//!
//! The lab does not move the page's model while it runs (that would be an attempt
//! per step): a run starts from its `start` (stated under the choices; Reset
//! reads the model's point again if the run starts there), and "Move my model to
//! the lab's point" records its latest point as one attempt, clamped to the
//! sliders (a path may leave their ranges; the lab's own numbers are not clamped).
//! Play takes a step every 150 ms and stops itself at the goal, on divergence,
//! when the run stalls, or after [`MAX_STEPS`]; with `prefers-reduced-motion` it
//! does not animate, it takes those steps at once. The step counter changes with
//! every step; the `role=status` line only with the state.

pub mod choice;
pub mod loss_chart;
#[cfg(feature = "ssr")]
pub mod markup;

mod text;

use leptos::prelude::*;

use self::choice::Choice;
#[cfg(feature = "ssr")]
use self::choice::Preset;
#[cfg(feature = "ssr")]
use self::markup::{preset_choices, start_choices};
#[cfg(feature = "ssr")]
use self::text::lesson;
use self::text::{finished, progress_text, rate_label, start_text, state_text, Mode};
use crate::page::{controls::language::use_texts, descent_lab::loss_chart::LossChart};
use lesson::{
    descent::{Descent, Rates, Scaling, Start, LEARNING_RATES},
    neuron::Params,
};
use vocabulary::format::localise;

/// One Play goes on for at most this many steps (a slow run that has not yet
/// stalled pauses there; Play again goes on).
pub const MAX_STEPS: usize = 1000;

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
    /// Where a run starts (Reset, a change of preset): Jay's start unless the
    /// visitor picks w 0, b 0 or the model's point. Setting it (the page does on
    /// "Start over") restarts the run from there.
    start: RwSignal<Start>,
    /// Moves the model and records one attempt.
    jump: Callback<Params>,
) -> impl IntoView {
    let t = use_texts();
    let mode = RwSignal::new(Mode::Ready);
    let timer = StoredValue::new(None::<IntervalHandle>);
    // `try_` forms: this also runs as the component is cleaned up, when the
    // signals may already be gone.
    let halt = move |next: Mode| {
        let _ = mode.try_set(next);
        if let Some(Some(handle)) = timer.try_update_value(Option::take) {
            handle.clear();
        }
    };
    on_cleanup(move || halt(Mode::Ready));
    let restart = move |scaling: Scaling, rates: Rates| {
        halt(Mode::Ready);
        descent.set(Descent::new(start.get_untracked().point(), rates, scaling));
    };
    // A new start restarts the run there.
    Effect::watch(
        move || start.get(),
        move |_, _, _| {
            let d = descent.get_untracked();
            restart(d.scaling, d.rates);
        },
        false,
    );
    let at_step = move || descent.with_untracked(|d| d.path.len().saturating_sub(1));
    let advance = move |n: usize| {
        if matches!(mode.get_untracked(), Mode::Paused { .. }) {
            mode.set(Mode::Ready);
        }
        descent.update(|d| _ = d.advance(n));
    };
    let play = move || {
        if mode.get_untracked() == Mode::Playing {
            halt(Mode::Paused { step: at_step() });
            return;
        }
        let until = at_step() + MAX_STEPS;
        if reduced_motion() {
            descent.update(|d| {
                while !finished(d) && d.path.len() <= until {
                    d.advance(1);
                }
            });
            mode.set(Mode::Ready);
            return;
        }
        if descent.with_untracked(finished) {
            return;
        }
        mode.set(Mode::Playing);
        let tick = move || {
            descent.update(|d| _ = d.advance(1));
            if descent.with_untracked(finished) {
                halt(Mode::Ready);
            } else if at_step() >= until {
                halt(Mode::Paused { step: at_step() });
            }
        };
        if let Ok(handle) = set_interval_with_handle(tick, std::time::Duration::from_millis(150)) {
            timer.set_value(Some(handle));
        } else {
            mode.set(Mode::Ready);
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
            Some("gd-step100") => advance(100),
            Some("gd-play") => play(),
            // From the start again (the model's point as it is now, if the run
            // starts there): the start's watcher restarts the run.
            Some("gd-reset") => start.update(|s| {
                if let Start::Model(p) = s {
                    *p = params.get_untracked();
                }
            }),
            Some("gd-apply") => {
                if let Some(p) = descent.with_untracked(Descent::current) {
                    jump.run(p.clamped_to_sliders());
                }
            }
            _ => {}
        }
    };
    // The radio buttons' one handler: a start, or areas and rates (the rate
    // slider's change bubbles here too, and is no choice).
    let on_choice = move |e: leptos::ev::Event| match Choice::of(
        &event_target_value(&e),
        params.get_untracked(),
    ) {
        Some(Choice::Start(s)) => start.set(s),
        Some(Choice::Preset(p)) => {
            let (scaling, rates) = p.settings();
            restart(scaling, rates);
        }
        None => {}
    };
    // The slider's rate (Jay's preset hides the slider: CSS, on its radio).
    let rate = move || descent.with(|d| d.rates.weight);
    let rate_text = move || localise(rate_label(rate()), t.lang);

    view! {
        <section
            class="panel descent-lab"
            aria-labelledby="descent-title"
            data-testid="descent-lab"
        >
            <h2 id="descent-title">{t.descent}</h2>
            <p class="lesson" data-testid="descent-lesson" inner_html=crate::server_only!(lesson(t))>
            </p>
            <div class="descent-settings" on:change=on_choice>
                <fieldset
                    class="descent-setting descent-choice"
                    inner_html=crate::server_only!(start_choices(t, start.get_untracked()))
                ></fieldset>
                <p class="descent-start" data-testid="gd-start">{move || start_text(t, start.get())}</p>
                <fieldset
                    class="descent-setting descent-choice"
                    inner_html=crate::server_only!(
                        descent.with_untracked(|d| preset_choices(t, Preset::of(d.scaling, d.rates)))
                    )
                ></fieldset>
                <div class="descent-setting rate-setting">
                    <div class="rate-head">
                        <label for="gd-rate">{t.rate}</label>
                        <output for="gd-rate" data-testid="gd-rate-value">{rate_text}</output>
                    </div>
                    <input
                        type="range"
                        id="gd-rate"
                        data-testid="gd-rate"
                        aria-describedby="gd-rate-hint"
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
                                descent.update(|d| d.set_rate(r));
                            }
                        }
                    />
                    <p class="hint" id="gd-rate-hint" inner_html=crate::server_only!(t.server.rate_hint.to_string())></p>
                </div>
            </div>
            // One click handler for the six buttons (each handler would be code of
            // its own in the WASM): the button's data-testid names its action.
            <div class="descent-buttons" role="group" aria-label=t.run on:click=on_button>
                <button type="button" data-testid="gd-step">{t.step}</button>
                <button type="button" data-testid="gd-step10">{t.step10}</button>
                <button type="button" data-testid="gd-step100">{t.step100}</button>
                <button type="button" data-testid="gd-play" aria-pressed=move || (mode.get() == Mode::Playing).to_string()>
                    {move || if mode.get() == Mode::Playing { t.pause } else { t.play }}
                </button>
                <button type="button" data-testid="gd-reset">{t.reset}</button>
                <button type="button" data-testid="gd-apply">{t.apply}</button>
            </div>
            <p class="descent-progress" data-testid="gd-progress">
                {move || descent.with(|d| progress_text(t, d))}
            </p>
            <p class="descent-status" data-testid="gd-status" role="status">
                {move || descent.with(|d| state_text(t, d, mode.get()))}
            </p>
            <LossChart descent=descent/>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_found_on_the_log_scale() {
        assert_eq!(LEARNING_RATES[rate_index(0.1)], 0.1);
        assert_eq!(LEARNING_RATES[rate_index(2.1e-7)], 2e-7);
    }
}
