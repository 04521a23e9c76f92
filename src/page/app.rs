//! The HTML shell (rendered by the server around every page) and the route table.

use leptos::prelude::*;

use crate::{
    page::controls::language::{page_lang, use_texts, PageLang},
    page::location::{path, query_param},
    page::simulator::Simulator,
};

/// The stylesheet's address (hashed in a release build), given by the server.
#[derive(Clone, Debug)]
pub struct StylesheetHref(pub String);

impl StylesheetHref {
    /// `/pkg/jay-trainer.css`, or `/pkg/jay-trainer.<hash>.css` for a build
    /// that names its files after their content.
    pub fn new(options: &LeptosOptions, hash: Option<&str>) -> Self {
        let (pkg, name) = (&options.site_pkg_dir, &options.output_name);
        Self(match hash {
            Some(hash) => format!("/{pkg}/{name}.{hash}.css"),
            None => format!("/{pkg}/{name}.css"),
        })
    }
}

/// The document around the app: `<head>` with the page's title, description,
/// stylesheet and hydration scripts, and after the app the credit to Jay's
/// guide ([`crate::page::credit`]). Only the server renders it, once per
/// request (the browser hydrates `<body>`), so the head needs no Leptos in the
/// browser: nothing in it changes after the page has loaded. Its two scripts of
/// its own note what the visitor does before hydration ([`early_input`]) and
/// make the visit's id for the insights ([`visit`]), with the render's CSP nonce.
/// Lesson 2's pages load their own bundle instead (`page::two::Bundle`) and
/// no hydration, with the same visit script (its reports name lesson 2).
#[cfg(feature = "ssr")]
pub fn shell(options: LeptosOptions) -> impl IntoView {
    use crate::page::{early_input, i18n::texts, visit};

    let t = texts(page_lang());
    let two = crate::page::two::is_two(&crate::page::location::path());
    // Lesson 2 runs its own small bundle instead of hydrating (`page::two`).
    let scripts = if two {
        let bundle = use_context::<Option<crate::page::two::Bundle>>()
            .flatten()
            .map(|b| {
                let wasm = format!("/{}/{}", crate::page::two::DIR, b.wasm);
                view! {
                    <link rel="preload" href=wasm r#as="fetch" r#type="application/wasm" crossorigin=""/>
                    <script type="module" nonce=leptos::nonce::use_nonce() inner_html=b.script()></script>
                }
            });
        view! {
            <script nonce=leptos::nonce::use_nonce() inner_html=visit::SCRIPT></script>
            {bundle}
        }
        .into_any()
    } else {
        view! {
            // Before any control exists: notes a move made before hydration.
            <script nonce=leptos::nonce::use_nonce() inner_html=early_input::SCRIPT></script>
            // The visit's random id and its reports, for the insights.
            <script nonce=leptos::nonce::use_nonce() inner_html=visit::SCRIPT></script>
            <HydrationScripts options=options.clone()/>
        }
        .into_any()
    };
    let (title, description) = if two {
        let w = crate::page::two::words::two_words(page_lang());
        (w.title, w.description)
    } else {
        (t.server.title, t.server.description)
    };
    let credit = crate::page::credit::markup(t.server.credit);
    let stylesheet = use_context::<StylesheetHref>()
        .unwrap_or_else(|| StylesheetHref::new(&options, None))
        .0;
    view! {
        <!DOCTYPE html>
        <html lang=page_lang().html_tag()>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <title>{title}</title>
                <meta name="description" content=description/>
                <link rel="icon" type="image/svg+xml" href="/favicon.svg"/>
                <link id="leptos" rel="stylesheet" href=stylesheet/>
                <AutoReload options=options.clone()/>
                {scripts}
            </head>
            <body>
                <App/>
                // Outside the app: the server's alone, which hydration never reads.
                <footer class="credit" data-testid="credit" inner_html=credit></footer>
            </body>
        </html>
    }
}

/// The application: one page today, the simulator, in the page's language.
#[component]
pub fn App() -> impl IntoView {
    provide_context(PageLang(page_lang()));
    // Effects run only in the browser: this marks the moment the WASM has taken
    // over the server-rendered page (the end-to-end tests wait for it).
    Effect::new(|_| {
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("data-hydrated", "true");
        }
    });

    page()
}

/// The paths the server renders the app for; every other one is the 404
/// (rendered by the fallback handler).
pub const PATHS: [&str; 4] = ["/", "/embed", "/two", "/two/embed"];

/// The route table, by hand (see [`crate::page::location`]): `/` is the
/// full page, or the compact embed with `?embed=1`; `/embed` the embed;
/// `/two` and `/two/embed` the second lesson.
fn page() -> AnyView {
    match path().as_str() {
        "/" => {
            let embed = query_param("embed").is_some_and(|v| v == "1");
            view! { <Simulator embed/> }.into_any()
        }
        "/embed" => view! { <Simulator embed=true/> }.into_any(),
        // Written by the server alone; the browser runs its controller instead
        // of hydrating it (`crate::page::two`).
        #[cfg(feature = "ssr")]
        "/two" => crate::page::two::page(false),
        #[cfg(feature = "ssr")]
        "/two/embed" => crate::page::two::page(true),
        _ => view! { <NotFound/> }.into_any(),
    }
}

#[component]
fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(response) = use_context::<leptos_axum::ResponseOptions>() {
        response.set_status(axum::http::StatusCode::NOT_FOUND);
    }
    let t = use_texts();
    view! {
        <main class="not-found">
            <h1>{t.not_found}</h1>
            <p>
                <a href="/">{t.back_home}</a>
            </p>
        </main>
    }
}
