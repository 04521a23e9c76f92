//! The HTML shell (rendered by the server around every page) and the route table.

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, Link, Meta, MetaTags, Stylesheet, Title};

use crate::{
    components::{
        language::{page_lang, use_texts, PageLang},
        location::{path, query_param},
        simulator::Simulator,
    },
    i18n::html_tag,
};

/// The document around the app: `<head>` with hydration scripts and meta tags.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang=html_tag(page_lang())>
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <AutoReload options=options.clone()/>
                <HydrationScripts options/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// The application: one page today, the simulator, in the page's language.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    provide_context(PageLang(page_lang()));
    let t = use_texts();
    // Effects run only in the browser: this marks the moment the WASM has taken
    // over the server-rendered page (the end-to-end tests wait for it).
    Effect::new(|_| {
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("data-hydrated", "true");
        }
    });

    view! {
        <Stylesheet id="leptos" href="/pkg/jay-trainer.css"/>
        <Link rel="icon" type_="image/svg+xml" href="/favicon.svg"/>
        <Title text=t.title/>
        <Meta name="description" content=t.description/>
        {page()}
    }
}

/// The paths the server renders the app for; every other one is the 404
/// (rendered by the fallback handler).
pub const PATHS: [&str; 2] = ["/", "/embed"];

/// The route table, by hand (see [`crate::components::location`]): `/` is the
/// full page, or the compact embed with `?embed=1`; `/embed` the embed.
fn page() -> AnyView {
    match path().as_str() {
        "/" => {
            let embed = query_param("embed").is_some_and(|v| v == "1");
            view! { <Simulator embed/> }.into_any()
        }
        "/embed" => view! { <Simulator embed=true/> }.into_any(),
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
