//! The landscape marker's keys: where the model goes for a key press. Pure, both
//! targets; [`crate::page::landscape`] calls it from the marker's `keydown`.
//!
//! The keys step like the sliders (the simulator's `ParamControl`s: weight step
//! 0.0001, coarse 0.001; bias step 0.1, coarse 1):
//!
//! | key | move |
//! |---|---|
//! | ← → | weight ∓ one step (0.0001) |
//! | ↑ ↓ | bias ± one step (0.1) |
//! | Shift + arrow | the same, a coarse step (weight 0.001, bias 1) |
//! | Page Up / Page Down | bias ± a coarse step (the marker is a slider of the bias) |
//! | Alt + ← or ↑ / Alt + → or ↓ | along the valley floor ([`lesson::valley`]): weight ∓ 0.001 and the best bias for it; ← and ↑ both go up the valley, to the upper left |
//! | Home | Jay's start, w 0.1 and b 150 (where the guide and "Start over" begin) |
//! | End | down to the valley floor: the best bias for the current weight |
//!
//! Home and End are not the ends of an axis: on a map of two parameters they
//! would mean a corner, far from anything useful; the start and the floor are
//! the two places a visitor returns to. From the start, Alt+← 37 times reaches
//! the goal, as do Shift+← 40 times and End (a thousand arrow presses before).
//! Every point lands on the sliders' grids and inside their ranges. Keys with
//! Ctrl or Meta are left to the browser.

use lesson::{
    neuron::{Params, BIAS_SLIDER, START, WEIGHT_SLIDER},
    valley::{along_floor, on_floor},
};

/// A coarse step is this many of the slider's steps (the sliders' coarse nudges).
pub const COARSE: f64 = 10.0;

/// The modifier keys held with a key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    pub shift: bool,
    pub alt: bool,
    /// Ctrl or Meta (Cmd): the browser's shortcuts.
    pub command: bool,
}

/// Where the marker goes from `from` for `key` (a `KeyboardEvent.key`), or
/// `None` for a key the map leaves to the browser.
#[must_use]
pub fn moved_by_key(from: Params, key: &str, held: Modifiers) -> Option<Params> {
    if held.command {
        return None;
    }
    // (weight steps, bias steps), in slider steps.
    let (weight, bias) = match (key, held.alt) {
        ("ArrowLeft" | "ArrowUp", true) => return Some(along_floor(from, -1)),
        ("ArrowRight" | "ArrowDown", true) => return Some(along_floor(from, 1)),
        (_, true) => return None,
        ("Home", _) => return Some(START),
        ("End", _) => return Some(on_floor(from.weight)),
        ("ArrowRight", _) => (1.0, 0.0),
        ("ArrowLeft", _) => (-1.0, 0.0),
        ("ArrowUp", _) => (0.0, 1.0),
        ("ArrowDown", _) => (0.0, -1.0),
        ("PageUp", _) => (0.0, COARSE),
        ("PageDown", _) => (0.0, -COARSE),
        _ => return None,
    };
    let scale = if held.shift { COARSE } else { 1.0 };
    Some(Params::new(
        WEIGHT_SLIDER.nearest(from.weight + weight * scale * WEIGHT_SLIDER.step),
        BIAS_SLIDER.nearest(from.bias + bias * scale * BIAS_SLIDER.step),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use lesson::neuron::{best_bias_for_weight, reaches_goal};

    const NONE: Modifiers = Modifiers {
        shift: false,
        alt: false,
        command: false,
    };
    const SHIFT: Modifiers = Modifiers {
        shift: true,
        ..NONE
    };
    const ALT: Modifiers = Modifiers { alt: true, ..NONE };

    fn key(from: Params, name: &str, held: Modifiers) -> Params {
        moved_by_key(from, name, held).unwrap_or_else(|| panic!("{name} is a map key"))
    }

    #[test]
    fn arrows_step_like_the_sliders_fine_and_with_shift_coarse() {
        let p = START;
        assert_eq!(key(p, "ArrowRight", NONE), Params::new(0.1001, 150.0));
        assert_eq!(key(p, "ArrowLeft", NONE), Params::new(0.0999, 150.0));
        assert_eq!(key(p, "ArrowUp", NONE), Params::new(0.1, 150.1));
        assert_eq!(key(p, "ArrowDown", NONE), Params::new(0.1, 149.9));
        assert_eq!(key(p, "ArrowRight", SHIFT), Params::new(0.101, 150.0));
        assert_eq!(key(p, "ArrowLeft", SHIFT), Params::new(0.099, 150.0));
        assert_eq!(key(p, "ArrowUp", SHIFT), Params::new(0.1, 151.0));
        assert_eq!(key(p, "ArrowDown", SHIFT), Params::new(0.1, 149.0));
        // The simulator's sliders: the same steps (src/page/controls/param_control.rs).
        assert_eq!(WEIGHT_SLIDER.step * COARSE, 0.001);
        assert_eq!(BIAS_SLIDER.step * COARSE, 1.0);
        // Ten presses are exactly one coarse press: on the grid, no drift.
        let ten = (0..10).fold(p, |at, _| key(at, "ArrowUp", NONE));
        assert_eq!(ten, key(p, "ArrowUp", SHIFT));
        let ten = (0..10).fold(p, |at, _| key(at, "ArrowLeft", NONE));
        assert_eq!(ten, key(p, "ArrowLeft", SHIFT));
    }

    #[test]
    fn page_keys_step_the_bias_coarsely_and_home_and_end_go_to_the_start_and_the_floor() {
        let p = Params::new(0.0731, 201.4);
        assert_eq!(key(p, "PageUp", NONE), Params::new(0.0731, 202.4));
        assert_eq!(key(p, "PageDown", NONE), Params::new(0.0731, 200.4));
        assert_eq!(key(p, "Home", NONE), START);
        let end = key(p, "End", NONE);
        assert_eq!(end.weight, p.weight);
        assert!(
            (end.bias - best_bias_for_weight(0.0731)).abs() <= 0.05,
            "{end:?}"
        );
        assert!(end.error() < p.error());
        // From the start, End goes straight down to the floor: 799.09 → 635.25.
        assert_eq!(key(START, "End", NONE), Params::new(0.1, 162.8));
    }

    #[test]
    fn alt_arrows_walk_along_the_valley_floor() {
        let up = key(START, "ArrowLeft", ALT);
        assert_eq!(up, key(START, "ArrowUp", ALT));
        assert_eq!(up.weight, 0.099);
        assert!((up.bias - best_bias_for_weight(0.099)).abs() <= 0.05);
        let down = key(up, "ArrowRight", ALT);
        assert_eq!(down, key(up, "ArrowDown", ALT));
        assert_eq!(down, key(START, "End", NONE));
        // Shift changes nothing: the walk is already coarse.
        let both = Modifiers { shift: true, ..ALT };
        assert_eq!(key(START, "ArrowLeft", both), up);
    }

    #[test]
    fn from_the_start_the_goal_takes_dozens_of_presses_not_a_thousand() {
        let presses = |keys: &[(&str, Modifiers, usize)]| {
            let mut at = START;
            let mut n = 0;
            for &(name, held, times) in keys {
                for _ in 0..times {
                    at = key(at, name, held);
                    n += 1;
                }
            }
            (n, reaches_goal(at.error()))
        };
        assert_eq!(presses(&[("ArrowLeft", ALT, 37)]), (37, true));
        assert_eq!(
            presses(&[("ArrowLeft", SHIFT, 40), ("End", NONE, 1)]),
            (41, true)
        );
        assert!(!presses(&[("ArrowLeft", ALT, 36)]).1);
    }

    #[test]
    fn edges_clamp_and_other_keys_are_left_to_the_browser() {
        let corner = Params::new(0.0, 0.0);
        assert_eq!(key(corner, "ArrowLeft", SHIFT), corner);
        assert_eq!(key(corner, "PageDown", NONE), corner);
        let top = Params::new(0.4, 460.0);
        assert_eq!(key(top, "PageUp", NONE), top);
        assert_eq!(key(top, "ArrowRight", NONE), top);
        for name in ["Enter", " ", "Tab", "a", "Escape"] {
            assert_eq!(moved_by_key(START, name, NONE), None, "{name}");
        }
        let ctrl = Modifiers {
            command: true,
            ..NONE
        };
        assert_eq!(moved_by_key(START, "Home", ctrl), None);
        assert_eq!(moved_by_key(START, "ArrowLeft", ctrl), None);
        assert_eq!(moved_by_key(START, "Home", ALT), None);
        assert_eq!(moved_by_key(START, "PageUp", ALT), None);
    }
}
