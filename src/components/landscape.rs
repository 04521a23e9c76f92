//! The loss landscape: a map of weight × bias coloured by the (log) error, with the
//! goal ladder's contours (exact ellipses from [`crate::contour`]), the 450 island,
//! the trail of attempts (best starred), the gradient descent lab's path and the
//! model's current point.
//!
//! Clicking the map moves the model there, and dragging (mouse or pen) carries the
//! marker along; the release is one attempt, through `jump`. The marker
//! is focusable: the arrow keys move it one slider step (left/right the weight,
//! up/down the bias), with Shift along (up/down) or across (left/right) the valley
//! ([`crate::valley`]). Key presses move the model live (`glide`); a burst of
//! them is one attempt, recorded once it settles ([`super::model`]).
//!
//! The geometry (view boxes, scales, colours) lives in [`super::landscape_geometry`];
//! the drawing, as markup strings, in [`super::landscape_markup`].

use leptos::{ev, prelude::*};

use super::{
    landscape_geometry::{coord, MapView, HEIGHT, WIDTH},
    landscape_markup::{background, overlay},
    language::use_texts,
    model::Attempt,
};
use crate::{
    descent::Descent,
    format::plain,
    i18n::fill,
    neuron::{Params, BIAS_SLIDER, WEIGHT_SLIDER},
    valley::{move_in_valley, ValleyDirection},
};

/// Where the marker goes for a key, or `None` for keys the map does not use.
fn moved_by_key(from: Params, key: &str, shift: bool) -> Option<Params> {
    let (direction, steps) = match key {
        "ArrowRight" => (ValleyDirection::Across, 1),
        "ArrowLeft" => (ValleyDirection::Across, -1),
        "ArrowUp" => (ValleyDirection::Along, 1),
        "ArrowDown" => (ValleyDirection::Along, -1),
        _ => return None,
    };
    Some(if shift {
        move_in_valley(from, direction, steps)
    } else if direction == ValleyDirection::Across {
        Params::new(
            from.weight + f64::from(steps) * WEIGHT_SLIDER.step,
            from.bias,
        )
        .clamped_to_sliders()
    } else {
        Params::new(from.weight, from.bias + f64::from(steps) * BIAS_SLIDER.step)
            .clamped_to_sliders()
    })
}

#[component]
pub fn Landscape(
    params: Memo<Params>,
    attempts: RwSignal<Vec<Attempt>>,
    descent: RwSignal<Descent>,
    /// Moves the model and records one attempt.
    jump: Callback<Params>,
    /// Moves the model; the attempt is recorded once a burst of keys settles.
    glide: Callback<Params>,
) -> impl IntoView {
    let t = use_texts();
    let zoomed = RwSignal::new(false);
    let view_of = move || {
        if zoomed.get() {
            MapView::valley()
        } else {
            MapView::full()
        }
    };
    // The marker's position during a drag, before the attempt.
    let pending = RwSignal::new(None::<Params>);
    let map = NodeRef::<leptos::svg::Svg>::new();
    let shown = move || pending.get().unwrap_or_else(|| params.get());

    let background = move || background(t, &view_of());
    let overlay = move || {
        let view = view_of();
        attempts.with(|list| descent.with(|d| overlay(&view, list, &d.path)))
    };
    let marker_at = move || {
        let (x, y) = view_of().to_svg(shown());
        format!("translate({} {})", coord(x), coord(y))
    };
    let value_text = move || {
        let p = shown();
        fill(
            t.marker_value,
            &[
                ("w", &t.plain(p.weight, 7)),
                ("b", &t.plain(p.bias, 4)),
                ("error", &t.num(p.error(), 2)),
            ],
        )
    };

    // A press on the map puts the marker there, a drag (mouse or pen; on touch
    // screens a drag scrolls the page) carries it along, and the release records
    // the point as one attempt. Leaving the map or a cancelled pointer drops it.
    let dragging = StoredValue::new(false);
    let point_at = move |e: &ev::PointerEvent| {
        let svg = map.get_untracked()?;
        let (x, y) = super::landscape_geometry::svg_point(&svg, e)?;
        view_of().at_svg(x, y)
    };
    let on_pointer = move |e: ev::PointerEvent| match e.type_().as_str() {
        "pointerdown" if e.button() == 0 => {
            if let Some(p) = point_at(&e) {
                dragging.set_value(true);
                pending.set(Some(p));
            }
        }
        "pointermove" if dragging.get_value() => {
            if let Some(p) = point_at(&e) {
                pending.set(Some(p));
            }
        }
        "pointerup" | "pointerleave" if dragging.get_value() => {
            dragging.set_value(false);
            if let Some(p) = pending.get_untracked() {
                pending.set(None);
                jump.run(p);
            }
        }
        "pointercancel" => {
            dragging.set_value(false);
            pending.set(None);
        }
        _ => {}
    };
    let on_keydown = move |e: ev::KeyboardEvent| {
        if let Some(to) = moved_by_key(params.get_untracked(), &e.key(), e.shift_key()) {
            e.prevent_default();
            glide.run(to);
        }
    };

    view! {
        <figure class="landscape" data-testid="landscape">
            <div class="landscape-head">
                <h2 id="landscape-title">{t.landscape_section}</h2>
                <button
                    type="button"
                    class="zoom"
                    data-testid="landscape-zoom"
                    aria-pressed=move || zoomed.get().to_string()
                    on:click=move |_| zoomed.update(|z| *z = !*z)
                >
                    {move || if zoomed.get() { t.show_all } else { t.zoom }}
                </button>
            </div>
            <svg
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                role="group"
                aria-labelledby="landscape-title"
                data-testid="landscape-map"
                node_ref=map
                on:pointerdown=on_pointer
                on:pointermove=on_pointer
                on:pointerup=on_pointer
                on:pointerleave=on_pointer
                on:pointercancel=on_pointer
            >
                <g inner_html=background></g>
                <g inner_html=overlay></g>
                <g
                    class="marker"
                    transform=marker_at
                    tabindex="0"
                    role="slider"
                    aria-label=t.marker
                    aria-valuemin="0"
                    aria-valuemax="500"
                    aria-valuenow=move || plain(shown().bias, 4)
                    aria-valuetext=value_text
                    data-testid="landscape-marker"
                    on:keydown=on_keydown
                    // Its two fixed circles as markup: typed elements cost WASM code.
                    inner_html=r#"<circle class="marker-halo" r="11"></circle><circle class="marker-dot" r="5"></circle>"#
                ></g>
            </svg>
            <figcaption>{t.landscape_caption}</figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrow_keys_move_one_slider_step_and_shift_follows_the_valley() {
        let p = Params::new(0.1, 150.0);
        let right = moved_by_key(p, "ArrowRight", false).expect("arrow");
        assert!((right.weight - 0.1001).abs() < 1e-12 && right.bias == 150.0);
        let up = moved_by_key(p, "ArrowUp", false).expect("arrow");
        assert!(up.weight == 0.1 && (up.bias - 150.1).abs() < 1e-9);
        let along = moved_by_key(p, "ArrowUp", true).expect("arrow");
        assert_eq!(along, move_in_valley(p, ValleyDirection::Along, 1));
        assert!(along.weight < p.weight, "along the valley the weight falls");
        assert_eq!(moved_by_key(p, "Enter", false), None);
        let corner = moved_by_key(Params::new(0.0, 0.0), "ArrowLeft", false).expect("arrow");
        assert_eq!(corner, Params::new(0.0, 0.0));
    }
}
