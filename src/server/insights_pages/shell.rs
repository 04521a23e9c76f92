//! The HTML document around an insights page (`/insights`, a room's live
//! view): `<html lang>`, the title, the site's stylesheet (the one the main
//! page links, hashed in a release build) and the pages' own
//! ([`super::style`]), a skip link, a header with the
//! language switch (three links to the same page with `lang` set and every
//! other parameter kept), and the page's `<main>`. Rendered by minijinja with
//! HTML escaping on: only the page's own `main` markup goes in as it is.
//!
//! The language is `?lang=` when it names one we speak, else the best of
//! `Accept-Language`, else English: the main page's rule
//! ([`crate::page::i18n::negotiate`]).
//!
//! [`html`] answers with the document and its Content-Security-Policy: no
//! script at all unless the page brings one under a nonce.

use std::sync::LazyLock;

use axum::{
    http::{
        header::{ACCEPT_LANGUAGE, CONTENT_SECURITY_POLICY, CONTENT_TYPE},
        HeaderMap, HeaderValue, StatusCode,
    },
    response::{IntoResponse, Response},
};
use minijinja::{context, Environment};
use serde::Serialize;

use super::words::language;
use crate::page::i18n::negotiate;
use vocabulary::Lang;

/// The templates of the insights pages, compiled once (HTML escaping on:
/// their names end in `.html`).
static TEMPLATES: LazyLock<Environment<'static>> = LazyLock::new(|| {
    let mut env = Environment::new();
    for (name, source) in [
        ("shell.html", include_str!("templates/shell.html")),
        ("insights.html", include_str!("templates/insights.html")),
        ("room.html", include_str!("templates/room.html")),
        ("notice.html", include_str!("templates/notice.html")),
    ] {
        if let Err(e) = env.add_template(name, source) {
            // A test renders every template: this cannot ship.
            tracing::error!("insights template {name}: {e}");
        }
    }
    env
});

/// Renders the built-in template `name` with `ctx`.
pub fn render(name: &str, ctx: impl Serialize) -> Result<String, minijinja::Error> {
    TEMPLATES.get_template(name)?.render(ctx)
}

/// The page's language: `?lang=`, else `Accept-Language`, else English.
pub fn page_lang(asked: Option<&str>, headers: &HeaderMap) -> Lang {
    let accept = headers.get(ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok());
    negotiate(asked, accept)
}

/// What the shell needs to know about a page.
#[derive(Clone, Debug)]
pub struct Head<'a> {
    pub lang: Lang,
    /// The document's title (the page's words).
    pub title: &'a str,
    /// The site stylesheet's address ([`crate::page::app::StylesheetHref`]).
    pub stylesheet: &'a str,
    /// This page's path, for the language links.
    pub path: &'a str,
    /// This page's query parameters; the language links keep all but `lang`.
    pub query: &'a [(String, String)],
    /// A class on `<main>` naming the page (its styles are scoped under it).
    pub class: &'a str,
}

/// A language link.
#[derive(Serialize)]
struct LangLink {
    href: String,
    tag: &'static str,
    name: &'static str,
    current: bool,
}

/// `path` with `query` (without its `lang`) and `lang` set.
pub fn href_in(path: &str, query: &[(String, String)], lang: Lang) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    for (k, v) in query.iter().filter(|(k, _)| k != "lang") {
        q.append_pair(k, v);
    }
    q.append_pair("lang", lang.code());
    format!("{path}?{}", q.finish())
}

/// The whole document around `main`, which is trusted markup (the page's
/// template output): everything else is escaped.
pub fn document(head: &Head<'_>, main: &str) -> Result<String, minijinja::Error> {
    let langs: Vec<LangLink> = Lang::ALL
        .into_iter()
        .map(|l| LangLink {
            href: href_in(head.path, head.query, l),
            tag: l.html_tag(),
            name: l.endonym(),
            current: l == head.lang,
        })
        .collect();
    render(
        "shell.html",
        context! {
            html_lang => head.lang.html_tag(),
            title => head.title,
            stylesheet => head.stylesheet,
            own_stylesheet => super::style::href(),
            home => format!("/?lang={}", head.lang.code()),
            words => language(head.lang).shell,
            langs => langs,
            class => head.class,
            main => main,
            credit => crate::page::credit::markup(crate::page::i18n::texts(head.lang).server.credit),
        },
    )
}

/// The pages' Content-Security-Policy: only the site's own styles and
/// images, no script unless one carries `nonce`, forms only to this site, and
/// framed only by this site.
pub fn policy(nonce: Option<&str>) -> String {
    let script = nonce.map_or_else(|| "'none'".to_string(), |n| format!("'nonce-{n}'"));
    format!(
        "default-src 'self'; script-src {script}; style-src 'self'; img-src 'self' data:; \
         connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
         frame-ancestors 'self'"
    )
}

/// An HTML answer with [`policy`]; a document that failed to render is a
/// `500` and a line in the log (the templates are built in and tested).
pub fn html(
    status: StatusCode,
    document: Result<String, minijinja::Error>,
    nonce: Option<&str>,
) -> Response {
    let body = match document {
        Ok(body) => body,
        Err(e) => {
            tracing::error!("insights page not rendered: {e}");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let mut response = (
        status,
        [(
            CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        )],
        body,
    )
        .into_response();
    if let Ok(value) = HeaderValue::from_str(&policy(nonce)) {
        response
            .headers_mut()
            .insert(CONTENT_SECURITY_POLICY, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn language_links_keep_the_other_parameters() {
        let q = pairs(&[("period", "7"), ("lang", "pt"), ("room", "a b&c")]);
        assert_eq!(
            href_in("/insights", &q, Lang::Zh),
            "/insights?period=7&room=a+b%26c&lang=zh"
        );
        assert_eq!(href_in("/insights", &[], Lang::En), "/insights?lang=en");
    }

    #[test]
    fn the_language_is_asked_then_accepted_then_english() {
        let mut h = HeaderMap::new();
        assert_eq!(page_lang(None, &h), Lang::En);
        h.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("zh-CN,en;q=0.5"));
        assert_eq!(page_lang(None, &h), Lang::Zh);
        assert_eq!(page_lang(Some("pt-BR"), &h), Lang::Pt);
        assert_eq!(page_lang(Some("fr"), &h), Lang::Zh);
    }

    #[test]
    fn the_document_escapes_everything_but_the_main_markup() {
        let q = pairs(&[("room", "\"><script>x</script>")]);
        let head = Head {
            lang: Lang::Pt,
            title: "Títle <b>",
            stylesheet: "/pkg/jay-trainer.css",
            path: "/insights",
            query: &q,
            class: "overview",
        };
        let doc = document(&head, "<p>kept</p>").expect("renders");
        assert!(doc.starts_with("<!DOCTYPE html>"));
        assert!(doc.contains(r#"<html lang="pt-BR">"#));
        assert!(doc.contains("<title>Títle &lt;b&gt;</title>"));
        // minijinja escapes `/` too (`&#x2f;`): the browser reads it as `/`.
        assert!(doc.contains(r#"href="&#x2f;pkg&#x2f;jay-trainer.css""#));
        assert!(doc.contains("<p>kept</p>"));
        assert!(!doc.contains("<script"), "{doc}");
        assert!(doc.contains(r#"aria-current="page">Português"#));
        assert!(doc.contains("Pular para o conteúdo"));
        assert_eq!(doc.matches("hreflang=").count(), 3);
    }

    #[test]
    fn no_script_runs_without_a_nonce() {
        assert!(policy(None).contains("script-src 'none';"));
        assert!(policy(Some("abc")).contains("script-src 'nonce-abc';"));
        assert!(!policy(None).contains("unsafe"));
    }
}
