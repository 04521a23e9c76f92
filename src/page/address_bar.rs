//! The browser's address bar and clipboard: keeping `?w=&b=` on the latest
//! attempt (with `history.replaceState`, so Back still leaves the page) and
//! writing a link to the clipboard.
//!
//! Browser-only; on the server (which never runs event handlers) these do nothing.

use lesson::neuron::Params;

/// Puts `?w=&b=` for `at` in the address bar (or removes them for `None`),
/// keeping the other query parameters (`embed`, the language).
pub fn show(at: Option<Params>) {
    #[cfg(feature = "hydrate")]
    browser::show(at);
    #[cfg(not(feature = "hydrate"))]
    let _ = at;
}

/// The address of this page at `at`, as a full URL to share.
pub fn link_to(at: Params) -> Option<String> {
    #[cfg(feature = "hydrate")]
    return browser::link_to(at);
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = at;
        None
    }
}

/// Writes `text` to the clipboard; `false` when the browser refuses (no
/// permission, or a page served over plain http).
pub async fn copy(text: String) -> bool {
    #[cfg(feature = "hydrate")]
    return browser::copy(&text).await;
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = text;
        false
    }
}

#[cfg(feature = "hydrate")]
mod browser {
    use web_sys::UrlSearchParams;

    use crate::page::link;
    use lesson::neuron::Params;

    /// The current query with `w` and `b` set to `at` (or removed).
    fn query_with(at: Option<Params>) -> Option<(web_sys::Location, String)> {
        let location = web_sys::window()?.location();
        let search = UrlSearchParams::new_with_str(&location.search().ok()?).ok()?;
        search.delete("w");
        search.delete("b");
        let mut query = String::from(search.to_string());
        if let Some(p) = at {
            if !query.is_empty() {
                query.push('&');
            }
            query.push_str(&link::query(p));
        }
        Some((location, query))
    }

    fn address(path: &str, query: &str) -> String {
        if query.is_empty() {
            path.to_string()
        } else {
            format!("{path}?{query}")
        }
    }

    pub fn show(at: Option<Params>) {
        let Some((location, query)) = query_with(at) else {
            return;
        };
        let Ok(path) = location.pathname() else {
            return;
        };
        if let Some(Ok(history)) = web_sys::window().map(|w| w.history()) {
            let _ = history.replace_state_with_url(
                &wasm_bindgen::JsValue::NULL,
                "",
                Some(&address(&path, &query)),
            );
        }
    }

    pub fn link_to(at: Params) -> Option<String> {
        let (location, query) = query_with(Some(at))?;
        let origin = location.origin().ok()?;
        let path = location.pathname().ok()?;
        Some(format!("{origin}{}", address(&path, &query)))
    }

    pub async fn copy(text: &str) -> bool {
        let Some(window) = web_sys::window() else {
            return false;
        };
        let promise = window.navigator().clipboard().write_text(text);
        wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
    }
}
