//! The second lesson, Jay's "And Then There Were Two" (`/two`, and
//! `/two/embed` for blogs): ten houses, their area and bathrooms, a neuron
//! with two weights and a bias; the goal, below 1,420, is out of the area's
//! reach alone.
//!
//! Lesson 1 hydrates Leptos components; this page is built so that its code
//! costs `/` nothing. The server writes the whole page ([`markup`],
//! [`figures`], in the page's language from [`words`]); the browser runs
//! `crates/page-two`, a controller over those elements compiled to a WASM
//! bundle of its own (no Leptos in it), which only this page loads
//! (`.ci/page-two` builds it). Both sides compute what they show with
//! [`lesson::two_view`], from the lesson's description
//! ([`lesson::lessons::TWO`]).

#[cfg(feature = "ssr")]
pub mod figures;
#[cfg(feature = "ssr")]
pub mod lab;
#[cfg(feature = "ssr")]
pub mod markup;
#[cfg(all(test, feature = "ssr"))]
mod tests;
#[cfg(feature = "ssr")]
pub mod words;

/// Whether `path` is this lesson's page.
#[must_use]
pub fn is_two(path: &str) -> bool {
    matches!(path, "/two" | "/two/embed")
}

/// The page's `<main>`, as the server writes it.
#[cfg(feature = "ssr")]
pub fn page(embed: bool) -> leptos::prelude::AnyView {
    use leptos::prelude::*;

    use crate::page::{controls::language::use_lang, i18n::texts, location::query_param};

    let lang = use_lang();
    let w = words::two_words(lang);
    let t = texts(lang);
    let (point, notices) = markup::read_link(query_param, w, t);
    let inner = markup::page(w, t, embed, point, &notices);
    let class = if embed {
        "simulator two embed"
    } else {
        "simulator two"
    };
    view! { <main class=class data-testid="two" inner_html=inner></main> }.into_any()
}

/// The site's folder of bundles built outside cargo-leptos (`public/bundles`).
pub const DIR: &str = "bundles";

/// The browser's bundle for this page (`crates/page-two`, built by
/// `.ci/page-two` into the site's `/bundles`): its file names, read once at
/// start-up from `page-two.txt` (`crate::server::assets::page_two`).
#[cfg(feature = "ssr")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bundle {
    /// Its file names, in the site's [`DIR`].
    pub js: String,
    pub wasm: String,
}

#[cfg(feature = "ssr")]
impl Bundle {
    /// The module script that loads the bundle and starts the controller.
    #[must_use]
    pub fn script(&self) -> String {
        format!(
            r#"import init, {{ start }} from "/{DIR}/{}"; init({{ module_or_path: "/{DIR}/{}" }}).then(start);"#,
            self.js, self.wasm
        )
    }
}

#[cfg(all(test, feature = "ssr"))]
mod bundle_tests {
    use super::*;

    #[test]
    fn the_script_loads_the_bundle_by_its_names() {
        let b = Bundle {
            js: "page-two.abc.js".into(),
            wasm: "page-two.abc.wasm".into(),
        };
        assert!(b
            .script()
            .contains(r#"from "/bundles/page-two.abc.js"; init({ module_or_path: "/bundles/page-two.abc.wasm" })"#));
    }
}
