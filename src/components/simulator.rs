//! The simulator page: owns the neuron's parameters and the history of attempts.
//!
//! Everything the visitor sees is derived from two signals (weight and bias), so a
//! slider tick redraws chart, table and error in the browser with no server round
//! trip. When an attempt is recorded (one per intention, never per tick of a
//! drag) is [`super::model`]'s business.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use super::{
    announcer::Announcer, attempts::Attempts, best_response::BestResponse, chart::Chart,
    coach_bubble::CoachBubble, descent_lab::DescentLab, embed::PostHeight, house_table::HouseTable,
    ladder::Ladder, landscape::Landscape, model::Model, param_control::ParamControl,
    question::Question, score::Score,
};
use crate::{
    descent::{Descent, Scaling},
    link,
    neuron::{Params, GOAL, START},
};

/// The full page's introduction.
const INTRO: &str = "<h1>Train a neuron by hand</h1><p>This neuron predicts a house's price from its area: <code>price = area × weight + bias</code>. Move the sliders until the line runs close to the three houses and the error drops below 450.</p>";

/// The embed's introduction: compact, but still a page with its one h1.
const EMBED_INTRO: &str = r#"<h1 class="embed-title">Train a neuron by hand</h1><p>Move the sliders until the error drops below 450. <a href="/" target="_blank" rel="noopener">Jay Trainer ↗</a></p>"#;

/// The page; `embed` is the compact layout for iframes (`/embed`, `/?embed=1`):
/// no introduction, tighter spacing, a link to the full page, and the page's
/// height posted to the parent window. The model starts at the link's `?w=&b=`
/// (rendered so by the server), else where the guide starts.
#[component]
pub fn Simulator(#[prop(optional)] embed: bool) -> impl IntoView {
    let from_link = use_query_map().with_untracked(|q| link::read(q.get_str("w"), q.get_str("b")));
    let model = Model::new(from_link.params);
    let (weight, bias, params, attempts) = (model.weight, model.bias, model.params, model.attempts);
    let error = Memo::new(move |_| params.get().error());
    let reached = Memo::new(move |_| attempts.with(|a| a.iter().any(|x| x.error < GOAL)));
    // The house picked in the table, highlighted on the chart.
    let highlight = RwSignal::new(None::<usize>);
    // The gradient descent lab's run, drawn on the landscape too.
    let descent = RwSignal::new(Descent::new(
        START,
        Scaling::Raw.default_rate(),
        Scaling::Raw,
    ));
    let commit = Callback::new(move |()| model.commit());
    let commit_soon = Callback::new(move |()| model.commit_soon());
    let jump = Callback::new(move |to: Params| model.jump(to));
    let glide = Callback::new(move |to: Params| model.glide(to));
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
            {embed.then(|| view! { <div class="embed-intro" inner_html=EMBED_INTRO></div> <PostHeight/> })}
            {(!embed).then(|| view! { <header class="intro" inner_html=INTRO></header> })}
            <section class="panel model" aria-label="The model">
                {notices}
                <Chart params=params highlight=highlight reached=reached/>
                <div class="controls">
                    <ParamControl
                        id="weight"
                        label="Weight"
                        hint="$1000 per sq ft"
                        value=weight
                        min=0.0
                        max=0.3
                        step=0.0001
                        coarse=0.001
                        decimals=7
                        on_commit=commit
                        on_settle=commit_soon
                    />
                    <ParamControl
                        id="bias"
                        label="Bias"
                        hint="$1000"
                        value=bias
                        min=0.0
                        max=500.0
                        step=0.1
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
                        on:click=move |_| model.start_over()
                    >
                        "Start over (w 0.1, b 150)"
                    </button>
                </div>
            </section>
            // The error and the latest comment: on a phone this strip stays in
            // view (sticky) while the controls above or the map below are used.
            <section class="panel live" aria-label="Your error and the coach" data-testid="live">
                <Score error=error/>
                <CoachBubble attempts=attempts/>
            </section>
            {(!embed)
                .then(|| {
                    view! {
                        <section class="panel landscape-panel" aria-label="The error landscape">
                            <Landscape params=params attempts=attempts descent=descent jump=jump glide=glide/>
                            <DescentLab params=params descent=descent jump=jump/>
                        </section>
                    }
                })}
            <section class="panel results" aria-label="How good is it">
                <Ladder attempts=attempts/>
                <Question params=params/>
                <Announcer attempts=attempts/>
                <HouseTable params=params highlight=highlight/>
                <Attempts model=model/>
            </section>
        </main>
    }
}
