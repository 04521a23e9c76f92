//! The simulator page: owns the neuron's parameters and the history of attempts.
//!
//! Everything the visitor sees is derived from two signals (weight and bias), so a
//! slider tick redraws chart, table and error in the browser with no server round
//! trip. When an attempt is recorded (one per intention, never per tick of a
//! drag) is [`crate::page::model`]'s business.
//!
//! "Start over" moves the model back to the guide's start and keeps every
//! attempt ([`crate::page::model`] says what the coach sees after it); the descent
//! lab starts again from there too, with its rate and scaling (a run being
//! played goes on playing, from the start). What the visitor did
//! before hydration is kept ([`crate::page::early_input`]).

use leptos::prelude::*;

#[cfg(feature = "ssr")]
use crate::page::controls::language::use_lang;
#[cfg(feature = "ssr")]
use crate::page::i18n::Texts;
use crate::page::link;
use crate::page::{
    chart::diagram::diagram,
    chart::question::Question,
    chart::Chart,
    coach_bubble::CoachBubble,
    controls::best_response::BestResponse,
    controls::language::{use_texts, LanguageSwitcher},
    controls::param_control::ParamControl,
    descent_lab::DescentLab,
    early_input,
    embed::PostHeight,
    landscape::Landscape,
    location::query_param,
    model::Model,
    results::announcer::Announcer,
    results::attempts::Attempts,
    results::house_table::HouseTable,
    results::ladder::Ladder,
    results::score::Score,
};
use lesson::{
    descent::{Descent, Scaling, Start},
    neuron::{reaches_goal, Params, BIAS_SLIDER, START, WEIGHT_SLIDER},
};
#[cfg(feature = "ssr")]
use vocabulary::Lang;

/// The introduction's markup: the full page's paragraph, or the embed's
/// compact heading and link to the full page (in the same language). Written
/// by the server alone (`i18n::ServerWords`).
#[cfg(feature = "ssr")]
fn intro_markup(t: &Texts, lang: Lang, embed: bool) -> String {
    if embed {
        format!(
            r#"<h1 class="embed-title">{}</h1><p>{}<a href="/?lang={}" target="_blank" rel="noopener">{}</a></p>"#,
            t.heading,
            t.server.embed_lead,
            lang.code(),
            t.embed_link
        )
    } else {
        format!(
            r#"{}<code class="formula">{}</code>{} <a class="next-lesson" href="/two?lang={}" data-testid="to-lesson-two">{}</a>"#,
            t.server.intro_lead,
            t.formula,
            t.server.intro_rest,
            lang.code(),
            t.server.next_lesson
        )
    }
}

/// The page; `embed` is the compact layout for iframes (`/embed`, `/?embed=1`):
/// no introduction, tighter spacing, a link to the full page, and the page's
/// height posted to the parent window. The model starts at the link's `?w=&b=`
/// (rendered so by the server), else where the guide starts.
#[component]
pub fn Simulator(#[prop(optional)] embed: bool) -> impl IntoView {
    let t = use_texts();
    let intro = crate::server_only!(intro_markup(t, use_lang(), embed));
    let (w, b) = (query_param("w"), query_param("b"));
    let from_link = link::read(w.as_deref(), b.as_deref(), t);
    let model = Model::new(from_link.params);
    let (weight, bias, params, attempts) = (model.weight, model.bias, model.params, model.attempts);
    let error = Memo::new(move |_| params.get().error());
    let reached = Memo::new(move |_| attempts.with(|a| a.iter().any(|x| reaches_goal(x.error))));
    // The house picked in the table, highlighted on the chart.
    let highlight = RwSignal::new(None::<usize>);
    // The gradient descent lab's run, drawn on the landscape too.
    let descent = RwSignal::new(Descent::new(
        START,
        Scaling::Raw.default_rate(),
        Scaling::Raw,
    ));
    // Where the lab's runs start (setting it restarts the lab there).
    let lab_start = RwSignal::new(Start::Jays);
    let commit = Callback::new(move |()| model.commit());
    let commit_soon = Callback::new(move |()| model.commit_soon());
    // A point a button, the map or the lab computed goes where the sliders
    // can hold it: one precision for a value everywhere.
    let jump = Callback::new(move |to: Params| model.jump(to.on_sliders()));
    let glide = Callback::new(move |to: Params| model.glide(to));
    // The phone strip shows the whole comment only when asked.
    let open = RwSignal::new(false);
    let start_over = move |_| {
        model.start_over();
        // The lab runs again from its start; one at the model's point follows
        // the model back to Jay's start.
        lab_start.update(|s| {
            if let Start::Model(p) = s {
                *p = START;
            }
        });
        descent
            .update(|d| *d = Descent::new(lab_start.get_untracked().point(), d.rates, d.scaling));
    };
    // Effects run once the WASM has taken over: keep a move made before.
    Effect::new(move |_| early_input::keep(model, t.lang));
    // What the link said that could not be used as written.
    let notices = (!from_link.notices.is_empty()).then(|| {
        let lines = from_link
            .notices
            .into_iter()
            .map(|n| view! { <p>{n}</p> })
            .collect_view();
        view! { <div class="link-notice" role="note" data-testid="link-notice">{lines}</div> }
    });

    view! {
        <main class=if embed { "simulator embed" } else { "simulator" }>
            // The introduction: fixed words, so markup (each typed element would
            // cost the WASM code of its own); the embed's is compact.
            {embed
                .then(|| {
                    view! {
                        <div class="embed-intro">
                            <div inner_html=intro.clone()></div>
                            <LanguageSwitcher params=params embed=true/>
                        </div>
                        <PostHeight/>
                    }
                })}
            {(!embed)
                .then(|| {
                    view! {
                        <header class="intro">
                            <div class="intro-head">
                                <h1>{t.heading}</h1>
                                <LanguageSwitcher params=params embed=false/>
                            </div>
                            <p inner_html=intro></p>
                        </header>
                    }
                })}
            <section class="panel model" aria-label=t.model_section>
                {notices}
                <Chart params=params highlight=highlight reached=reached/>
                <div class="controls">
                    <ParamControl
                        id="weight"
                        label=t.weight
                        hint=t.weight_unit
                        value=weight
                        min=WEIGHT_SLIDER.min
                        max=WEIGHT_SLIDER.max
                        step=WEIGHT_SLIDER.step
                        coarse=0.001
                        decimals=7
                        on_commit=commit
                        on_settle=commit_soon
                    />
                    <ParamControl
                        id="bias"
                        label=t.bias
                        hint=t.bias_unit
                        value=bias
                        min=BIAS_SLIDER.min
                        max=BIAS_SLIDER.max
                        step=BIAS_SLIDER.step
                        coarse=1.0
                        decimals=4
                        on_commit=commit
                        on_settle=commit_soon
                    />
                    <BestResponse params=params jump=jump/>
                    <button
                        type="button"
                        class="start-over"
                        data-testid="start-over"
                        on:click=start_over
                    >
                        {t.start_over}
                    </button>
                </div>
                // Under the sliders (so they stay in view on a wide screen): the
                // sum the neuron makes for one house (the one picked in the
                // table, else the first).
                {diagram(t, params.into(), highlight.into())}
            </section>
            // The error and the latest comment stay in view whatever control is
            // used: sticky at the top of the right column on a wide screen (the
            // results scroll under it), a compact strip on a phone that shows
            // the whole comment on demand.
            <div class="side">
                <section
                    class="panel live"
                    class:open=open
                    aria-label=t.live_section
                    data-testid="live"
                >
                    <Score error=error/>
                    <CoachBubble model=model/>
                    <button
                        type="button"
                        class="live-more"
                        data-testid="live-more"
                        aria-expanded=move || open.get().to_string()
                        aria-label=t.show_comment
                        title=t.show_comment
                        on:click=move |_| open.update(|o| *o = !*o)
                    >
                        <span aria-hidden="true">"⌄"</span>
                    </button>
                </section>
                <section class="panel results" aria-label=t.results_section>
                    <Ladder attempts=attempts/>
                    <Question params=params/>
                    <Announcer model=model/>
                    <HouseTable params=params highlight=highlight/>
                    <Attempts model=model/>
                </section>
            </div>
            {(!embed)
                .then(|| {
                    view! {
                        <section class="panel landscape-panel" aria-label=t.landscape_section>
                            <Landscape params=params attempts=attempts descent=descent jump=jump glide=glide/>
                            <DescentLab params=params descent=descent start=lab_start jump=jump/>
                        </section>
                    }
                })}
        </main>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::i18n::texts;

    #[test]
    fn the_formula_wraps_only_between_its_words() {
        // On a phone the Chinese formula broke inside 权重 ("× 权 / 重"):
        // the formula's class keeps its words whole.
        let zh = intro_markup(texts(Lang::Zh), Lang::Zh, false);
        assert!(
            zh.contains(r#"<code class="formula">价格 = 面积 × 权重 + 偏置</code>"#),
            "{zh}"
        );
        let css = include_str!("../../style/base.css");
        assert!(
            css.contains(".formula { word-break: keep-all;"),
            "style/base.css"
        );
    }
}
