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
#[cfg(feature = "ssr")]
pub mod write;

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
    let (point, notices) = markup::read_link(query_param, w, lang);
    let inner = markup::page(w, texts(lang), embed, point, &notices);
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
/// start-up from `page-two.txt`.
#[cfg(feature = "ssr")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bundle {
    /// Its file names, in the site's [`DIR`].
    pub js: String,
    pub wasm: String,
}

#[cfg(feature = "ssr")]
impl Bundle {
    /// The site's folder of bundles, and the bundle in it (a warning in the
    /// log when there is none).
    pub fn in_site(options: &leptos::config::LeptosOptions) -> (std::path::PathBuf, Option<Self>) {
        let dir = std::path::Path::new(options.site_root.as_ref()).join(DIR);
        let bundle = Self::read(&dir);
        if bundle.is_none() {
            tracing::warn!("no lesson 2 bundle in {dir:?} (.ci/page-two): /two works as a form");
        }
        (dir, bundle)
    }

    /// The bundle listed in `dir/page-two.txt`; `None` (the page then
    /// works as a form, without its controller) when it was not built.
    #[must_use]
    pub fn read(dir: &std::path::Path) -> Option<Self> {
        let text = std::fs::read_to_string(dir.join("page-two.txt")).ok()?;
        Self::parse(&text)
    }

    fn parse(text: &str) -> Option<Self> {
        let entry = |kind: &str| {
            text.lines()
                .filter_map(|line| line.split_once(':'))
                .find(|(k, _)| k.trim() == kind)
                .map(|(_, v)| v.trim().to_string())
                .filter(|v| !v.is_empty() && !v.contains(['/', '"', '<']))
        };
        Some(Self {
            js: entry("js")?,
            wasm: entry("wasm")?,
        })
    }

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
    fn the_bundles_names_come_from_its_list() {
        let b = Bundle::parse("js: page-two.abc.js\nwasm: page-two.abc.wasm\n").expect("both");
        assert_eq!(b.js, "page-two.abc.js");
        assert!(b
            .script()
            .contains(r#"from "/bundles/page-two.abc.js"; init({ module_or_path: "/bundles/page-two.abc.wasm" })"#));
        assert_eq!(Bundle::parse("js: a.js\n"), None, "no wasm");
        assert_eq!(
            Bundle::parse("js: \"><script>\nwasm: x"),
            None,
            "names only"
        );
    }
}
