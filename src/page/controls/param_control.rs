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
//! are one attempt. The number box commits on `change` (Enter or leaving the
//! field); values outside the range are clamped and text that is not a number
//! restores the current value.
//!
//! The number box is a text field (`inputmode="decimal"`, a spinbutton to
//! assistive technology), not `type="number"`: a browser writes a number
//! input's value with a point whatever the page's language, so a Portuguese
//! page showed "0.1" beside "−0,001" and "449,30". The box writes the page's
//! separator and reads a comma or a point ([`format::parse_decimal`]); its
//! Up and Down keys step it by the slider's step, Page Up and Page Down by the
//! coarse one, and settle like the slider's keys.

use std::fmt::Write;

use leptos::prelude::*;

use crate::page::controls::language::use_texts;
use vocabulary::{fill, format, Lang};

#[component]
pub fn ParamControl(
    /// Element id; the number box gets `{id}-number`.
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
    /// Decimals kept when the value is written back into the number box.
    decimals: usize,
    /// Called once per committed change (slider release, number edit, button).
    on_commit: Callback<()>,
    /// Called for a change made with the keyboard's stepping keys: the attempt
    /// is recorded once the burst settles.
    on_settle: Callback<()>,
) -> impl IntoView {
    let t = use_texts();
    let number_id = format!("{id}-number");
    // The value as the page writes it (`0,1` in Portuguese).
    let shown = move || t.plain(value.get(), decimals);
    let initial = t.plain(value.get_untracked(), decimals);
    // A range input reads only a point ("0.1"): given "0,1" it went to its
    // middle, and a Portuguese drag was no attempt.
    let on_range = move || format::plain(value.get(), decimals);
    let range_initial = format::plain(value.get_untracked(), decimals);

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
    let on_number = move |ev| match parse_clamped(&event_target_value(&ev), t.lang, min, max) {
        Some(v) => {
            value.set(v);
            on_commit.run(());
        }
        // Not a number: notify anyway so the field shows the current value again.
        None => value.update(|_| {}),
    };
    // The box's stepping keys, as a spinbutton's: a burst is one attempt.
    let on_number_key = move |ev: leptos::ev::KeyboardEvent| {
        let by = match ev.key().as_str() {
            "ArrowUp" => step,
            "ArrowDown" => -step,
            "PageUp" => coarse,
            "PageDown" => -coarse,
            _ => return,
        };
        ev.prevent_default();
        value.set(nudged(value.get_untracked(), by, step, min, max));
        on_settle.run(());
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
                    value=range_initial
                    prop:value=on_range
                    aria-valuetext=move || format!("{} ({hint})", shown())
                    on:input=on_slide
                    on:keydown=on_key
                    on:pointerdown=move |_| keyed.set_value(false)
                    on:change=on_release
                />
                <input
                    type="text"
                    class="param-number"
                    id=number_id
                    role="spinbutton"
                    aria-label=fill(t.exact_value, &[("label", label)])
                    aria-valuemin=min
                    aria-valuemax=max
                    aria-valuenow=move || format::plain(value.get(), decimals)
                    inputmode="decimal"
                    autocomplete="off"
                    spellcheck="false"
                    value=initial
                    prop:value=shown
                    on:keydown=on_number_key
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

/// A number typed on a page in `lang` (a comma or a point), clamped to the
/// slider's range; `None` when it is not a number.
pub(crate) fn parse_clamped(text: &str, lang: Lang, min: f64, max: f64) -> Option<f64> {
    Some(format::parse_decimal(text, lang)?.clamp(min, max))
}

/// `value` moved by `by`, on the `step` grid, within the range.
fn nudged(value: f64, by: f64, step: f64, min: f64, max: f64) -> f64 {
    (((value + by) / step).round() * step).clamp(min, max)
}

#[cfg(test)]
mod tests {
    use super::{nudged, Lang};

    fn parse_clamped(text: &str, min: f64, max: f64) -> Option<f64> {
        super::parse_clamped(text, Lang::En, min, max)
    }

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

    #[test]
    fn typed_values_take_a_comma_or_a_point() {
        // A Portuguese visitor types what the page writes; anyone may type
        // either. Bad text is None: the box shows its last value again.
        for lang in Lang::ALL {
            assert_eq!(super::parse_clamped("0,1", lang, 0.0, 0.3), Some(0.1));
            assert_eq!(super::parse_clamped("0.1", lang, 0.0, 0.3), Some(0.1));
            assert_eq!(
                super::parse_clamped("247,26", lang, 0.0, 500.0),
                Some(247.26)
            );
            assert_eq!(super::parse_clamped("0,5", lang, 0.0, 0.3), Some(0.3));
            assert_eq!(super::parse_clamped("0,1,", lang, 0.0, 0.3), None);
        }
    }
}
