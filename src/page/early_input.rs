//! What the visitor did before the page came alive. The server's page is usable
//! before its WASM has loaded (1.7–2.1 s on a slow phone): a slider can be
//! dragged, a number typed. Hydration then writes the model's values back into
//! the controls, which would silently undo that move.
//!
//! So a tiny script in the page's `<head>` ([`SCRIPT`], carrying the render's
//! CSP nonce) notes the latest value of each parameter's controls (the
//! weight's and the bias's slider and number box, by id) as they are moved,
//! until the page is hydrated. Once the app has taken over, [`keep`] reads
//! those values once and, if the visitor changed anything, moves the model
//! there and records it as one attempt, like any other move.

use leptos::prelude::GetUntracked;

use crate::page::model::Model;
use lesson::neuron::{Params, Slider, BIAS_SLIDER, WEIGHT_SLIDER};
use vocabulary::Lang;

/// The window property the script fills: `{weight: "0.06", bias: "245"}`, the
/// controls' `value`s as typed or dragged.
pub const GLOBAL: &str = "__jayEarly";

/// Notes every `input` on the controls whose id is `weight`, `bias`,
/// `weight-number` or `bias-number`, until `<html data-hydrated>` is set.
/// (No `&`, `<` or `>`: it is safe as text and as markup.)
pub const SCRIPT: &str = r#"(function(){var s=window.__jayEarly={},r=document.documentElement;addEventListener("input",function(e){var m=/^(weight|bias)(-number)?$/.exec(e.target.id);if(m)if(!r.hasAttribute("data-hydrated"))s[m[1]]=e.target.value},true)})()"#;

/// One control's value as a parameter: the number boxes' own rule (see
/// [`crate::page::controls::param_control`]), clamped to the slider; `None` for text that is
/// not a number (an emptied box).
fn value(text: &str, slider: Slider, lang: Lang) -> Option<f64> {
    crate::page::controls::param_control::parse_clamped(text, lang, slider.min, slider.max)
}

/// Where the visitor left the controls before hydration, when that differs
/// from `at` (the model's point): each parameter from its noted value (as
/// written on a page in `lang`: "0,06" in Portuguese), else where it is.
#[must_use]
pub fn moved_to(
    at: Params,
    weight: Option<&str>,
    bias: Option<&str>,
    lang: Lang,
) -> Option<Params> {
    let to = Params::new(
        weight
            .and_then(|w| value(w, WEIGHT_SLIDER, lang))
            .unwrap_or(at.weight),
        bias.and_then(|b| value(b, BIAS_SLIDER, lang))
            .unwrap_or(at.bias),
    );
    (to != at).then_some(to)
}

/// Applies what was done before hydration, once, as one attempt.
pub fn keep(model: Model, lang: Lang) {
    let (weight, bias) = noted();
    if let Some(to) = moved_to(
        model.params.get_untracked(),
        weight.as_deref(),
        bias.as_deref(),
        lang,
    ) {
        model.jump(to);
    }
}

/// The values the script noted (and forgets them).
#[cfg(feature = "hydrate")]
fn noted() -> (Option<String>, Option<String>) {
    use js_sys::Reflect;
    use wasm_bindgen::JsValue;

    let Some(window) = web_sys::window() else {
        return (None, None);
    };
    let key = JsValue::from_str(GLOBAL);
    let Ok(seen) = Reflect::get(&window, &key) else {
        return (None, None);
    };
    let _ = Reflect::delete_property(&window, &key);
    let field = |name: &str| {
        if seen.is_object() {
            Reflect::get(&seen, &JsValue::from_str(name))
                .ok()?
                .as_string()
        } else {
            None
        }
    };
    (field("weight"), field("bias"))
}

/// The server runs no script.
#[cfg(not(feature = "hydrate"))]
fn noted() -> (Option<String>, Option<String>) {
    (None, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lesson::neuron::START;

    #[test]
    fn a_moved_control_moves_the_model_an_untouched_one_does_not() {
        assert_eq!(moved_to(START, None, None, Lang::En), None);
        assert_eq!(
            moved_to(START, Some("0.1"), Some("150"), Lang::En),
            None,
            "same point"
        );
        assert_eq!(
            moved_to(START, Some("0.06"), None, Lang::En),
            Some(Params::new(0.06, 150.0))
        );
        assert_eq!(
            moved_to(START, Some("0.06"), Some(" 245 "), Lang::En),
            Some(Params::new(0.06, 245.0))
        );
    }

    #[test]
    fn values_are_read_like_the_number_boxes_clamped_to_the_sliders() {
        assert_eq!(
            moved_to(START, Some("9"), Some("-3"), Lang::En),
            Some(Params::new(0.4, 0.0))
        );
        assert_eq!(
            moved_to(START, Some(""), Some("abc"), Lang::En),
            None,
            "emptied box"
        );
        assert_eq!(
            moved_to(START, Some("NaN"), Some("151"), Lang::En),
            Some(Params::new(0.1, 151.0))
        );
    }

    #[test]
    fn a_portuguese_page_is_read_with_its_comma() {
        assert_eq!(
            moved_to(START, Some("0,06"), Some("245,5"), Lang::Pt),
            Some(Params::new(0.06, 245.5))
        );
    }

    #[test]
    fn the_script_is_safe_inline_and_watches_the_four_controls() {
        assert!(!SCRIPT.contains(['<', '>', '&']));
        assert!(SCRIPT.contains(GLOBAL));
        assert!(SCRIPT.contains("^(weight|bias)(-number)?$"));
        assert!(SCRIPT.contains("data-hydrated"));
    }
}
