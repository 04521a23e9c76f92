//! In a blog's iframe (`/two/embed`), the page tells the parent window its
//! height, as lesson 1's embed does: `{type: "jay-trainer:height", height}`
//! by `postMessage`, at load and whenever the body's height changes (the
//! listener is in the README, "Embedding in a blog").

use js_sys::{Object, Reflect};
use wasm_bindgen::{closure::Closure, JsCast, JsValue};
use web_sys::{ResizeObserver, Window};

/// The messages' `type` (lesson 1's `page::embed::MESSAGE_TYPE`).
const MESSAGE_TYPE: &str = "jay-trainer:height";

/// Posts the body's height to the parent window, when framed.
pub(crate) fn post_heights() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if AsRef::<JsValue>::as_ref(&window) == AsRef::<JsValue>::as_ref(&parent) {
        return;
    }
    let Some(body) = window.document().and_then(|d| d.body()) else {
        return;
    };
    let send = {
        let body = body.clone();
        move || post(&parent, body.offset_height())
    };
    send();
    let on_resize = Closure::<dyn FnMut()>::new(send);
    if let Ok(observer) = ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
        observer.observe(&body);
        on_resize.forget();
        std::mem::forget(observer);
    }
}

fn post(parent: &Window, height: i32) {
    let message = Object::new();
    let _ = Reflect::set(&message, &"type".into(), &MESSAGE_TYPE.into());
    let _ = Reflect::set(&message, &"height".into(), &height.into());
    let _ = parent.post_message(&message, "*");
}
