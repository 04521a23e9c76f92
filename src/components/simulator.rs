//! The simulator page: owns the neuron's parameters and the history of attempts.
//!
//! Everything the visitor sees is derived from two signals (weight and bias), so a
//! slider tick redraws chart, table and error in the browser with no server round
//! trip. An *attempt* is committed only when a slider is released (its `change`
//! event) or a number edit is committed, never on every tick of a drag.

use leptos::prelude::*;

use super::{
    announcer::Announcer, attempts::Attempts, best_response::BestResponse, chart::Chart,
    coach_bubble::CoachBubble, descent_lab::DescentLab, embed::PostHeight, house_table::HouseTable,
    ladder::Ladder, landscape::Landscape, param_control::ParamControl, question::Question,
    score::Score,
};
use crate::{
    descent::{Descent, Scaling},
    neuron::Params,
};

/// Where a visitor starts: where Jay's guide starts (w 0.1, b 150: error 799.09,
/// "can you get below 799?"), close enough to see the goal, far enough that the
/// diagonal valley makes it hard.
pub const START: Params = Params::new(0.1, 150.0);

/// One committed try: the parameters and the error they gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attempt {
    pub params: Params,
    pub error: f64,
}

/// The page; `embed` is the compact layout for iframes (`/embed`, `/?embed=1`):
/// no introduction, tighter spacing, a link to the full page, and the page's
/// height posted to the parent window.
#[component]
pub fn Simulator(#[prop(optional)] embed: bool) -> impl IntoView {
    let weight = RwSignal::new(START.weight);
    let bias = RwSignal::new(START.bias);
    let params = Memo::new(move |_| Params::new(weight.get(), bias.get()));
    let error = Memo::new(move |_| params.get().error());
    let attempts = RwSignal::new(Vec::<Attempt>::new());
    let last_committed = StoredValue::new(START);
    // The gradient descent lab's run, drawn on the landscape too.
    let descent = RwSignal::new(Descent::new(
        START,
        Scaling::Raw.default_rate(),
        Scaling::Raw,
    ));

    let commit = Callback::new(move |()| {
        let now = params.get_untracked();
        if now == last_committed.get_value() {
            return;
        }
        last_committed.set_value(now);
        attempts.update(|list| {
            list.push(Attempt {
                params: now,
                error: now.error(),
            })
        });
    });
    // Moves both parameters at once and records that as one attempt (a button
    // press, a click on a map): the way components other than the sliders
    // change the model.
    let jump = Callback::new(move |to: Params| {
        weight.set(to.weight);
        bias.set(to.bias);
        commit.run(());
    });

    view! {
        <main class="simulator" class:embed=embed>
            <Show
                when=move || !embed
                fallback=|| {
                    view! {
                        // Compact, but still a page with its one h1.
                        <div class="embed-intro">
                            <h1 class="embed-title">"Train a neuron by hand"</h1>
                            <p>
                                "Move the sliders until the error drops below 450. "
                                <a href="/" target="_blank" rel="noopener">
                                    "Jay Trainer ↗"
                                </a>
                            </p>
                        </div>
                        <PostHeight/>
                    }
                }
            >
                <header class="intro">
                    <h1>"Train a neuron by hand"</h1>
                    <p>
                        "This neuron predicts a house's price from its area: "
                        <code>"price = area × weight + bias"</code>
                        ". Move the sliders until the line runs close to the three houses and the error drops below 450."
                    </p>
                </header>
            </Show>
            <section class="panel model" aria-label="The model">
                <Chart params=params/>
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
                    />
                    <BestResponse params=params jump=jump/>
                </div>
            </section>
            {(!embed)
                .then(|| {
                    view! {
                        <section class="panel landscape-panel" aria-label="The error landscape">
                            <Landscape params=params attempts=attempts descent=descent jump=jump/>
                            <DescentLab params=params descent=descent jump=jump/>
                        </section>
                    }
                })}
            <section class="panel results" aria-label="How good is it">
                <Score error=error/>
                <Ladder attempts=attempts/>
                <Question params=params/>
                <Announcer attempts=attempts/>
                <CoachBubble attempts=attempts/>
                <HouseTable params=params/>
                <Attempts attempts=attempts/>
            </section>
        </main>
    }
}
