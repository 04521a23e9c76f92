//! Inside an iframe, the page tells the parent window how tall it is, so a blog
//! can size the frame to fit: `{type: "jay-trainer:height", height}` by
//! `postMessage`, at load and whenever the content's height changes.
//!
//! The listener on the blog's side is in the README ("Embedding in a blog").

use leptos::prelude::*;

/// The `type` of the height messages.
pub const MESSAGE_TYPE: &str = "jay-trainer:height";

/// Posts the document's height to the parent window (in the browser, when
/// framed; nothing on the server or in a top-level window).
#[component]
pub fn PostHeight() -> impl IntoView {
    Effect::new(|_| {
        #[cfg(feature = "hydrate")]
        browser::post_heights();
    });
}

#[cfg(feature = "hydrate")]
mod browser {
    use leptos::wasm_bindgen::{closure::Closure, JsCast, JsValue};
    use web_sys::{ResizeObserver, Window};

    use super::MESSAGE_TYPE;

    pub fn post_heights() {
        let Some(window) = web_sys::window() else {
            return;
        };
        let Ok(Some(parent)) = window.parent() else {
            return;
        };
        let top_level: &JsValue = window.as_ref();
        if top_level == AsRef::<JsValue>::as_ref(&parent) {
            return;
        }
        // The body's own height: the document's scrollHeight never drops
        // below the frame's, so the frame could grow but never shrink.
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
            // Both live as long as the page.
            on_resize.forget();
            std::mem::forget(observer);
        }
    }

    fn post(parent: &Window, height: i32) {
        let message = js_sys::Object::new();
        let set = |key: &str, value: JsValue| {
            let _ = js_sys::Reflect::set(&message, &JsValue::from_str(key), &value);
        };
        set("type", JsValue::from_str(MESSAGE_TYPE));
        set("height", JsValue::from(height));
        // The height is no secret: any embedding page may read it.
        let _ = parent.post_message(&message, "*");
    }
}
