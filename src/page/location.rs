//! Where the page is: its path and its query parameters, read from the request
//! on the server and from `window.location` in the browser.
//!
//! The app has three routes (`/`, `/embed` and the 404), chosen once per page
//! load, so it routes by hand ([`crate::page::app`]) instead of shipping
//! `leptos_router` to the browser: that measured 56 KB of gzipped WASM.
//! Every link between pages is a plain `<a href>`, a full page load.

use leptos::prelude::*;

/// The page's path: the request's on the server, the location's in the browser.
pub fn path() -> String {
    #[cfg(feature = "ssr")]
    {
        use_context::<axum::http::request::Parts>()
            .map(|parts| parts.uri.path().to_string())
            .unwrap_or_else(|| "/".into())
    }
    #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
    {
        window()
            .location()
            .pathname()
            .unwrap_or_else(|_| "/".into())
    }
    #[cfg(not(any(feature = "ssr", feature = "hydrate")))]
    {
        "/".into()
    }
}

/// The first value of the page's query parameter `name` (`?name=value`).
pub fn query_param(name: &str) -> Option<String> {
    #[cfg(feature = "ssr")]
    {
        let parts = use_context::<axum::http::request::Parts>()?;
        form_urlencoded::parse(parts.uri.query()?.as_bytes())
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    }
    #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
    {
        let search = window().location().search().ok()?;
        web_sys::UrlSearchParams::new_with_str(&search)
            .ok()?
            .get(name)
    }
    #[cfg(not(any(feature = "ssr", feature = "hydrate")))]
    {
        let _ = name;
        None
    }
}
