//! "Best bias for this weight" and "best weight for this bias": each button
//! moves one parameter to where the error is lowest while the other stays put.
//!
//! Pressed in turn they zig-zag towards the optimum, slowly: the error's
//! valley runs diagonally, and each press keeps about 97 % of the excess error
//! (`lesson::zigzag`). That slowness is the lesson that motivates gradient
//! descent on scaled inputs. Each press is one attempt.

use leptos::prelude::*;

use crate::page::controls::language::use_texts;
use lesson::{neuron::Params, zigzag::Press};

#[component]
pub fn BestResponse(
    params: Memo<Params>,
    /// Moves to the new point and records it as one attempt.
    jump: Callback<Params>,
) -> impl IntoView {
    let press = move |button: Press| {
        move |_| jump.run(button.apply(params.get_untracked()).clamped_to_sliders())
    };
    let t = use_texts();
    view! {
        <div class="best-response" role="group" aria-label=t.one_at_a_time>
            <button type="button" data-testid="best-bias" on:click=press(Press::BestBias)>
                {t.best_bias}
            </button>
            <button type="button" data-testid="best-weight" on:click=press(Press::BestWeight)>
                {t.best_weight}
            </button>
        </div>
    }
}
