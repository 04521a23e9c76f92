//! Where a click lands on the map, in the map's SVG units (the browser's side
//! of `lesson::map`).

/// The SVG point under a mouse event on the map `svg`: the map is drawn at the
/// aspect ratio of its `viewBox`, so its on-screen box scales linearly to SVG units.
/// (Leptos delegates click events, so the event's current target is not the map.)
#[cfg(feature = "hydrate")]
#[must_use]
pub fn svg_point(
    svg: &leptos::web_sys::SvgElement,
    e: &leptos::ev::MouseEvent,
) -> Option<(f64, f64)> {
    use js_sys::{Function, Reflect};
    use wasm_bindgen::JsCast;
    let measure: Function = Reflect::get(svg, &"getBoundingClientRect".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let rect = measure.call0(svg).ok()?;
    let get = |key: &str| Reflect::get(&rect, &key.into()).ok()?.as_f64();
    let (left, top, width, height) = (get("left")?, get("top")?, get("width")?, get("height")?);
    if width <= 0.0 || height <= 0.0 {
        return None;
    }
    Some((
        (f64::from(e.client_x()) - left) / width * lesson::map::WIDTH,
        (f64::from(e.client_y()) - top) / height * lesson::map::HEIGHT,
    ))
}

/// On the server there are no clicks.
#[cfg(not(feature = "hydrate"))]
#[must_use]
pub fn svg_point(
    _: &leptos::web_sys::SvgElement,
    _: &leptos::ev::MouseEvent,
) -> Option<(f64, f64)> {
    None
}
