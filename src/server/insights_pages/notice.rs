//! A short page of sentences and links in the insights' shell: the `403`
//! that says the insights are private until a token is set, and the page a
//! teacher's new room opens on. Everything in it is escaped.

use axum::{http::StatusCode, response::Response};
use minijinja::context;
use serde::Serialize;

use super::shell;
use vocabulary::Lang;

/// A link on a notice.
#[derive(Serialize)]
pub struct Link<'a> {
    pub label: &'a str,
    pub href: &'a str,
    /// Shown as the link's text after the label (an address to copy).
    pub shown: Option<&'a str>,
}

/// A notice page.
pub struct Notice<'a> {
    pub lang: Lang,
    pub title: &'a str,
    pub heading: &'a str,
    pub lines: &'a [&'a str],
    pub stylesheet: &'a str,
}

impl Notice<'_> {
    /// The page with `status`.
    pub fn response(&self, status: StatusCode) -> Response {
        self.with_links(status, &[])
    }

    /// The page with `links` under its lines.
    pub fn with_links(&self, status: StatusCode, links: &[Link<'_>]) -> Response {
        let main = shell::render(
            "notice.html",
            context! { heading => self.heading, lines => self.lines, links => links },
        );
        let head = shell::Head {
            lang: self.lang,
            title: self.title,
            stylesheet: self.stylesheet,
            path: "/insights",
            query: &[],
            class: "insights-notice",
        };
        shell::html(
            status,
            main.and_then(|main| shell::document(&head, &main)),
            None,
        )
    }
}
