//! The few DOM operations the controller needs, by element id.

use wasm_bindgen::{closure::Closure, JsCast};
use web_sys::{Document, HtmlInputElement};

use vocabulary::fill;

pub(crate) fn input(doc: &Document, id: &str) -> Option<HtmlInputElement> {
    doc.get_element_by_id(id)?.dyn_into().ok()
}

pub(crate) fn target_value(ev: &web_sys::Event) -> Option<String> {
    Some(ev.target()?.dyn_into::<HtmlInputElement>().ok()?.value())
}

pub(crate) fn text(doc: &Document, id: &str, value: &str) {
    if let Some(el) = doc.get_element_by_id(id) {
        el.set_text_content(Some(value));
    }
}

pub(crate) fn attr(doc: &Document, id: &str, name: &str, value: &str) {
    if let Some(el) = doc.get_element_by_id(id) {
        let _ = el.set_attribute(name, value);
    }
}

/// Fills the element's `data-template` and writes it as its text.
pub(crate) fn fill_template(doc: &Document, id: &str, values: &[(&str, &str)]) {
    if let Some(el) = doc.get_element_by_id(id) {
        let template = el.get_attribute("data-template").unwrap_or_default();
        el.set_text_content(Some(&fill(&template, values)));
    }
}

pub(crate) fn on(
    doc: &Document,
    id: &str,
    event: &str,
    handler: impl FnMut(web_sys::Event) + 'static,
) {
    if let Some(el) = doc.get_element_by_id(id) {
        listen(&el, event, handler);
    }
}

/// Listens for the page's lifetime (the closure is handed to the browser).
pub(crate) fn listen(
    target: &web_sys::EventTarget,
    event: &str,
    handler: impl FnMut(web_sys::Event) + 'static,
) {
    let closure = Closure::<dyn FnMut(web_sys::Event)>::new(handler);
    let _ = target.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
    closure.forget();
}
