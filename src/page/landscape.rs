//! The loss landscape: a map of weight × bias coloured by the (log) error, with the
//! goal ladder's contours (exact ellipses from [`lesson::contour`]), the 450 island
//! (outlined above everything, labelled), the trail of attempts (best starred), the
//! gradient descent lab's path, the model's current point, and a legend in words.
//!
//! Clicking (or tapping) the map moves the model there, and dragging (mouse or pen)
//! carries the marker along; the release is one attempt, through `jump`. The
//! caption says "click" with a mouse and "tap" on a touch screen: both sentences
//! are rendered and CSS (`(hover: none) and (pointer: coarse)`) shows one, so the
//! server's render and hydration agree.
//!
//! The marker is focusable and steps like the sliders
//! ([`crate::page::landscape::keys`]): arrows one slider step, Shift+arrows and Page
//! Up/Down a coarse one, Alt+arrows along the valley floor, Home back to Jay's
//! start, End down to the best bias for the weight; the caption's last line says so
//! (the marker's description). Key presses move the model live (`glide`); a burst
//! of them is one attempt, recorded once it settles ([`crate::page::model`]).
//!
//! The geometry (view boxes, scales, colours) lives in [`lesson::map`];
//! the drawing, as markup strings, in [`crate::page::landscape::markup`] and
//! [`crate::page::landscape::legend`].

pub mod keys;
pub mod legend;
pub mod markup;
mod pointer;

use leptos::{ev, prelude::*};

#[cfg(feature = "ssr")]
use crate::page::landscape::legend::legend;
use crate::page::{
    controls::language::use_texts,
    landscape::{
        keys::{moved_by_key, Modifiers},
        legend::{goal_label, island},
        markup::{background, overlay},
    },
    model::Attempt,
};
use lesson::map::{coord, MapView, HEIGHT, WIDTH};
use lesson::{
    descent::Descent,
    neuron::{Params, BIAS_SLIDER},
};
use vocabulary::{fill, format::plain};

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

    let background = move || {
        let view = view_of();
        // The server keeps the two views it writes ([`kept_ground`]).
        #[cfg(feature = "ssr")]
        return kept_ground(t, &view);
        #[cfg(not(feature = "ssr"))]
        {
            let mut s = background(t, &view);
            s.push_str(&goal_label(t, &view));
            s
        }
    };
    let island_layer = move || {
        let view = view_of();
        #[cfg(feature = "ssr")]
        {
            // The island has no words: one language's slots keep it.
            static KEPT: crate::page::kept::PerView = crate::page::kept::per_view_slots();
            crate::page::kept::per_view(&KEPT, vocabulary::Lang::En, &view, || island(&view))
        }
        #[cfg(not(feature = "ssr"))]
        island(&view)
    };
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
        let (x, y) = pointer::svg_point(&svg, e)?;
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
        let held = Modifiers {
            shift: e.shift_key(),
            alt: e.alt_key(),
            command: e.ctrl_key() || e.meta_key(),
        };
        if let Some(to) = moved_by_key(params.get_untracked(), &e.key(), held) {
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
                    aria-describedby="landscape-keys"
                    aria-valuemin="0"
                    aria-valuemax=BIAS_SLIDER.max.to_string()
                    aria-valuenow=move || plain(shown().bias, 4)
                    aria-valuetext=value_text
                    data-testid="landscape-marker"
                    on:keydown=on_keydown
                    // Its two fixed circles as markup: typed elements cost WASM code.
                    inner_html=r#"<circle class="marker-halo" r="11"></circle><circle class="marker-dot" r="5"></circle>"#
                ></g>
                <g class="goal-island" inner_html=island_layer></g>
            </svg>
            <ul
                class="landscape-legend"
                data-testid="landscape-legend"
                aria-label=t.map_legend
                inner_html=crate::server_only!(legend(t))
            ></ul>
            <figcaption>
                // Written by the server alone (`i18n::ServerWords`).
                <p inner_html=crate::server_only!(caption(t))></p>
                <p
                    class="on-mouse"
                    id="landscape-keys"
                    data-testid="landscape-keys"
                    inner_html=crate::server_only!(t.server.map_keys.to_string())
                ></p>
            </figcaption>
        </figure>
    }
}

/// The map's caption, then "click" or "tap" (CSS shows the one that fits the
/// screen), spaced as the language spaces its sentences.
#[cfg(feature = "ssr")]
fn caption(t: &crate::page::i18n::Texts) -> String {
    let space = if t.lang.profile().spaced { " " } else { "" };
    format!(
        r#"{}{space}<span class="on-mouse" data-testid="landscape-click">{}</span><span class="on-touch" data-testid="landscape-tap">{}</span>"#,
        t.server.landscape_caption, t.server.map_click, t.server.map_tap
    )
}

/// The map's layers under the island (the background and the goal's label)
/// in `view`, on the server: the page's two views written once per language
/// and kept ([`crate::page::kept`]).
#[cfg(feature = "ssr")]
fn kept_ground(t: &'static crate::page::i18n::Texts, view: &MapView) -> String {
    static KEPT: crate::page::kept::PerView = crate::page::kept::per_view_slots();
    crate::page::kept::per_view(&KEPT, t.lang, view, || {
        let mut s = background(t, view);
        s.push_str(&goal_label(t, view));
        s
    })
}
