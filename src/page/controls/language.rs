//! The page's language, and the switcher between en, pt-BR and zh-CN.
//!
//! The server chooses the language once per request ([`crate::page::i18n::negotiate`]:
//! `?lang=`, else `Accept-Language`, else English) and writes it into
//! `<html lang>`; the browser reads it back from there, so both render the same
//! words and hydration matches. Components get it with [`use_texts`].
//!
//! The switcher is three plain links (they work before the WASM loads), each
//! to this page with `lang` set and the other parameters kept: `embed`, and the
//! model's current `w` and `b`, so switching keeps the view.

use leptos::prelude::*;

use crate::page::{
    i18n::{texts, Texts},
    link,
};
use lesson::neuron::Params;
use vocabulary::Lang;

/// The page's language, as a context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageLang(pub Lang);

/// The language of the page being rendered (server) or hydrated (browser).
pub fn page_lang() -> Lang {
    #[cfg(feature = "ssr")]
    {
        let Some(parts) = use_context::<axum::http::request::Parts>() else {
            return Lang::default();
        };
        let asked = crate::page::location::query_param("lang");
        let accept = parts
            .headers
            .get(axum::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok());
        crate::page::i18n::negotiate(asked.as_deref(), accept)
    }
    #[cfg(not(feature = "ssr"))]
    {
        document()
            .document_element()
            .map(|html| html.get_attribute("lang").unwrap_or_default())
            .and_then(|tag| Lang::parse(&tag))
            .unwrap_or_default()
    }
}

/// The page's language (English outside a page, e.g. in a unit test).
pub fn use_lang() -> Lang {
    use_context::<PageLang>().map_or_else(Lang::default, |l| l.0)
}

/// The page's words.
pub fn use_texts() -> &'static Texts {
    texts(use_lang())
}

/// The query for this page in `lang` at `at`, keeping `embed`.
fn query_for(embed: bool, at: Params, lang: Lang) -> String {
    let embed = if embed { "embed=1&" } else { "" };
    format!("?{embed}{}&lang={}", link::query(at), lang.code())
}

#[component]
pub fn LanguageSwitcher(params: Memo<Params>, embed: bool) -> impl IntoView {
    let current = use_lang();
    let t = use_texts();
    let links = Lang::ALL
        .into_iter()
        .map(|lang| {
            view! {
                <a
                    href=move || query_for(embed, params.get(), lang)
                    // A full page load: the page's words are chosen by the server.
                    hreflang=lang.html_tag()
                    lang=lang.html_tag()
                    aria-current=(lang == current).then_some("true")
                    data-testid=format!("lang-{}", lang.code())
                >
                    {lang.endonym()}
                </a>
            }
        })
        .collect_view();
    view! {
        <nav class="languages" aria-label=t.language>
            {links}
        </nav>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_switch_keeps_the_point_and_the_layout() {
        let at = Params::new(0.0585, 247.3);
        assert_eq!(query_for(false, at, Lang::Pt), "?w=0.0585&b=247.3&lang=pt");
        assert_eq!(
            query_for(true, at, Lang::Zh),
            "?embed=1&w=0.0585&b=247.3&lang=zh"
        );
    }
}
