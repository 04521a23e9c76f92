//! One parameter: a slider for dragging, a number input for exact values, and
//! four buttons that nudge it by a coarse or a fine step (the slider's own).
//!
//! The buttons are for fingers and for precision: on a phone a slider's pixel
//! is a large jump, and the goal needs the weight within ±0.0008. Each press is
//! one attempt. The number input's arrows step like the slider.
//!
//! The slider's `input` event updates the value live (every tick of a drag); its
//! `change` event commits an attempt: at once for a pointer's release, and once
//! a burst of arrow keys settles for the keyboard (`on_settle`), so ten presses
//! are one attempt. The number input commits on `change` (Enter or leaving the
//! field; its arrow keys settle like the slider's); values outside the range are
//! clamped and text that is not a number restores the current value.

use std::fmt::Write;

use leptos::prelude::*;

use super::language::use_texts;
use crate::{format, i18n::fill};

#[component]
pub fn ParamControl(
    /// Element id; the number input gets `{id}-number`.
    id: &'static str,
    label: &'static str,
    /// The unit, shown after the label.
    hint: &'static str,
    value: RwSignal<f64>,
    min: f64,
    max: f64,
    step: f64,
    /// The coarse nudge (the fine one is `step`).
    coarse: f64,
    /// Decimals kept when the value is written back into the number input.
    decimals: usize,
    /// Called once per committed change (slider release, number edit, button).
    on_commit: Callback<()>,
    /// Called for a change made with the keyboard's stepping keys: the attempt
    /// is recorded once the burst settles.
    on_settle: Callback<()>,
) -> impl IntoView {
    let t = use_texts();
    let number_id = format!("{id}-number");
    let shown = move || format::plain(value.get(), decimals);
    let initial = format::plain(value.get_untracked(), decimals);

    let on_slide = move |ev| {
        if let Ok(v) = event_target_value(&ev).parse::<f64>() {
            value.set(v);
        }
    };
    // Whether the change under way comes from a stepping key (the `keydown`
    // precedes the `change` it causes).
    let keyed = StoredValue::new(false);
    let on_key = move |ev: leptos::ev::KeyboardEvent| keyed.set_value(is_stepping_key(&ev.key()));
    let committed = move || {
        if keyed.get_value() {
            keyed.set_value(false);
            on_settle.run(());
        } else {
            on_commit.run(());
        }
    };
    let on_release = move |_| committed();
    let on_number = move |ev| match parse_clamped(&event_target_value(&ev), min, max) {
        Some(v) => {
            value.set(v);
            committed();
        }
        // Not a number: notify anyway so the field shows the current value again.
        None => value.update(|_| {}),
    };
    // The four nudges, coarse and fine, down and up: one click handler for the
    // four buttons (each handler would be code of its own in the WASM), the
    // button's `data-nudge` names its step.
    let steps = [-coarse, -step, step, coarse];
    let mut nudges = String::new();
    for (i, by) in steps.iter().enumerate() {
        let sign = if *by < 0.0 { "−" } else { "+" };
        let text = format!("{sign}{}", t.plain(by.abs(), decimals));
        let _ = write!(
            nudges,
            r#"<button type="button" class="nudge" aria-label="{label} {text}" data-nudge="{i}">{text}</button>"#
        );
    }
    let on_nudge = move |e: leptos::ev::MouseEvent| {
        let by = event_target::<leptos::web_sys::Element>(&e)
            .closest("[data-nudge]")
            .ok()
            .flatten()
            .and_then(|b| b.get_attribute("data-nudge"))
            .and_then(|i| steps.get(i.parse::<usize>().ok()?).copied());
        if let Some(by) = by {
            value.set(nudged(value.get_untracked(), by, step, min, max));
            on_commit.run(());
        }
    };

    view! {
        <div class="param">
            // The label's two parts as markup (fixed words from the page's code):
            // typed elements cost the WASM code of their own.
            <label
                for=id
                inner_html=format!(
                    r#"<span class="param-name">{label}</span><span class="param-unit">{hint}</span>"#,
                )
            ></label>
            <div class="param-inputs">
                <input
                    type="range"
                    id=id
                    min=min
                    max=max
                    step=step
                    value=initial.clone()
                    prop:value=shown
                    aria-valuetext=move || format!("{} ({hint})", format::localise(shown(), t.lang))
                    on:input=on_slide
                    on:keydown=on_key
                    on:pointerdown=move |_| keyed.set_value(false)
                    on:change=on_release
                />
                <input
                    type="number"
                    id=number_id
                    aria-label=fill(t.exact_value, &[("label", label)])
                    min=min
                    max=max
                    step=step
                    inputmode="decimal"
                    value=initial
                    prop:value=shown
                    on:keydown=on_key
                    on:change=on_number
                />
            </div>
            <div
                class="param-nudges"
                data-testid=format!("{id}-nudges")
                inner_html=nudges
                on:click=on_nudge
            ></div>
        </div>
    }
}

/// Keys that step a slider or a number input (and so come in bursts).
fn is_stepping_key(key: &str) -> bool {
    matches!(
        key,
        "ArrowUp"
            | "ArrowDown"
            | "ArrowLeft"
            | "ArrowRight"
            | "PageUp"
            | "PageDown"
            | "Home"
            | "End"
    )
}

/// A typed number, clamped to the slider's range; `None` when it is not a number.
pub(super) fn parse_clamped(text: &str, min: f64, max: f64) -> Option<f64> {
    let v = text.trim().parse::<f64>().ok().filter(|v| v.is_finite())?;
    Some(v.clamp(min, max))
}

/// `value` moved by `by`, on the `step` grid, within the range.
fn nudged(value: f64, by: f64, step: f64, min: f64, max: f64) -> f64 {
    (((value + by) / step).round() * step).clamp(min, max)
}

#[cfg(test)]
mod tests {
    use super::{nudged, parse_clamped};

    #[test]
    fn nudges_stay_on_the_grid_and_in_range() {
        assert_eq!(nudged(0.1, 0.001, 0.0001, 0.0, 0.3), 0.101);
        let mut w = 0.1;
        for _ in 0..10 {
            w = nudged(w, -0.0001, 0.0001, 0.0, 0.3);
        }
        assert!((w - 0.099).abs() < 1e-12, "{w}");
        assert_eq!(nudged(0.2995, 0.001, 0.0001, 0.0, 0.3), 0.3);
        assert_eq!(nudged(0.4, -1.0, 0.1, 0.0, 500.0), 0.0);
    }

    #[test]
    fn typed_values_are_parsed_and_clamped() {
        assert_eq!(parse_clamped("0.0585", 0.0, 0.3), Some(0.0585));
        assert_eq!(parse_clamped(" 247.26 ", 0.0, 500.0), Some(247.26));
        assert_eq!(parse_clamped("9", 0.0, 0.3), Some(0.3));
        assert_eq!(parse_clamped("-1", 0.0, 0.3), Some(0.0));
        assert_eq!(parse_clamped("", 0.0, 0.3), None);
        assert_eq!(parse_clamped("abc", 0.0, 0.3), None);
        assert_eq!(parse_clamped("NaN", 0.0, 0.3), None);
        assert_eq!(parse_clamped("inf", 0.0, 0.3), None);
    }
}
