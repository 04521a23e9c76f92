//! The offline commentator judged as a model would be: over points across the
//! sliders' range and histories of every kind (first, better, worse, about
//! the same, long), in every language, its comment passes the reply check a
//! model's answer must pass (`reply::check`, with the prompt and facts the
//! model would get), and its opener fits its situation (`judge::misfit`:
//! no praise after a worse attempt or when far, "close" only when close, the
//! goal only when reached, no slider named for the hint to contradict) and
//! quotes no number but the visitor's own.

use proptest::prelude::*;

use super::{comment, hint, opener};
use crate::{
    input::CoachInput,
    judge::{check, directions::advised},
    offline::phrasebook::{judge::misfit, Distance, Situation},
    prompt::{build, trend::Trend},
    words::words_for,
};
use lesson::neuron::{best_bias_for_weight, min_error, optimum, Params, GOAL, START};
use vocabulary::{format::grouped_in, Lang};

/// The history's kinds: which way the last attempt went.
#[derive(Clone, Copy, Debug)]
enum Kind {
    First,
    Better,
    Worse,
    Stuck,
    /// Earlier attempts only, up to 99 of them, anywhere.
    Long,
}

const KINDS: [Kind; 5] = [
    Kind::First,
    Kind::Better,
    Kind::Worse,
    Kind::Stuck,
    Kind::Long,
];

/// Earlier errors for a visitor now at `error`: `earlier` (ratios to the
/// error) and then a last attempt the `kind`'s way (`step` in 0..1: how far).
fn history(error: f64, kind: Kind, earlier: &[f64], step: f64) -> Vec<f64> {
    let mut history: Vec<f64> = earlier.iter().map(|r| error * r).collect();
    match kind {
        Kind::First => history.clear(),
        Kind::Better => history.push(error * (1.01 + 2.0 * step) + 1.0),
        Kind::Worse => history.push(error / (1.01 + 2.0 * step) - 0.6),
        Kind::Stuck => history.push(error * (1.0 + 0.004 * (step - 0.5))),
        Kind::Long => {}
    }
    history
}

/// Every way the comment for `input` could fail a model's rules, or ours.
fn judge(input: &CoachInput) -> Result<(), String> {
    let text = comment(input);
    let said = |why: &str| Err(format!("{why}: {text:?} for {input:?}"));
    // The check a model's answer passes, with the facts the model would get.
    match check(&text, &build(input)) {
        Ok(kept) if kept == text => {}
        Ok(kept) => return said(&format!("the check changed it to {kept:?}")),
        Err(why) => return said(&format!("rejected: {why}")),
    }
    let opener = opener(input);
    let separator = words_for(input.lang).separator;
    let whole = match hint(input) {
        Some(hint) => format!("{opener}{separator}{hint}"),
        None => opener.clone(),
    };
    if whole != text {
        return said("not the opener and the hint");
    }
    let situation = Situation::of(input.error, &input.attempts);
    if let Some(why) = misfit(&opener, situation, input.lang) {
        return said(&why);
    }
    if !advised(&opener, input.lang).is_empty() {
        return said("the opener advises a move");
    }
    if let Some(number) = stray_number(&opener, input) {
        return said(&format!("quotes {number:?}"));
    }
    Ok(())
}

/// A number in `opener` that is none of the visitor's: the error, the best,
/// what is to go, the attempt's number, and at the goal 450 and the floor.
fn stray_number(opener: &str, input: &CoachInput) -> Option<String> {
    let trend = Trend::of(input.error, &input.attempts);
    let num = |x: f64| grouped_in(x, 2, input.lang);
    let mut allowed = vec![
        num(input.error),
        num(trend.best),
        num((input.error - GOAL).max(0.0)),
        trend.attempts.to_string(),
    ];
    if Distance::of(input.error) == Distance::Goal {
        allowed.extend([num(min_error()), "450".to_string()]);
    }
    allowed.sort_by_key(|a| std::cmp::Reverse(a.len()));
    let mut rest = opener.to_string();
    for number in &allowed {
        rest = rest.replace(number.as_str(), " ");
    }
    rest.split(|c: char| !c.is_ascii_digit())
        .find(|run| !run.is_empty())
        .map(str::to_string)
}

fn visitor(p: Params, attempts: Vec<f64>, with_point: bool, lang: Lang) -> CoachInput {
    CoachInput {
        error: p.error(),
        attempts,
        params: with_point.then_some(p),
        lesson: lesson::lessons::Which::One,
        two: None,
        model: None,
        lang,
    }
}

/// A grid over both sliders (every 0.025 of weight, every 50 of bias), the
/// valley's floor, the optimum and Jay's start.
fn grid() -> Vec<Params> {
    let mut points = vec![START, optimum(), Params::new(0.0585, 246.0)];
    for i in 0..=12 {
        let w = 0.025 * f64::from(i);
        points.extend((0..=10).map(|j| Params::new(w, 50.0 * f64::from(j))));
        let w = 0.04 + 0.005 * f64::from(i);
        points.push(Params::new(w, best_bias_for_weight(w)));
    }
    points
}

#[test]
fn on_a_grid_of_points_and_histories_the_reply_check_passes_the_offline_words() {
    // Without the point, only the error matters: the properties below cover it.
    // (The direction check takes a millisecond or two per comment in a debug
    // build: one history per point and kind, taking turns.)
    let earlier = [[2.0, 1.5].as_slice(), &[0.9, 1.4, 1.1, 0.95], &[]];
    for lang in Lang::ALL {
        for (i, p) in grid().into_iter().enumerate() {
            for (k, kind) in KINDS.into_iter().enumerate() {
                let turn = (i + k) % earlier.len();
                let step = 0.4 * turn as f64;
                let attempts = history(p.error(), kind, earlier[turn], step);
                if let Err(why) = judge(&visitor(p, attempts, true, lang)) {
                    panic!("{lang:?} {kind:?}: {why}");
                }
            }
        }
    }
}

fn lang() -> impl Strategy<Value = Lang> {
    proptest::sample::select(Lang::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(768))]

    #[test]
    fn anywhere_on_the_sliders_after_any_history_the_offline_words_pass(
        weight in 0.0..=0.3f64,
        bias in 0.0..=500.0f64,
        kind in prop::sample::select(KINDS.to_vec()),
        earlier in prop::collection::vec(0.3..3.0f64, 0..99),
        step in 0.0..1.0f64,
        with_point in any::<bool>(),
        lang in lang(),
    ) {
        let p = Params::new(weight, bias);
        let input = visitor(p, history(p.error(), kind, &earlier, step), with_point, lang);
        prop_assert!(judge(&input).is_ok(), "{:?}", judge(&input));
    }

    #[test]
    fn near_the_goal_the_offline_words_pass(
        // The last stretch: the valley's floor around the optimum, where
        // "close", "goal" and "worse" meet.
        weight in 0.045..=0.075f64,
        off in -8.0..=8.0f64,
        kind in prop::sample::select(KINDS.to_vec()),
        earlier in prop::collection::vec(0.98..1.6f64, 0..12),
        step in 0.0..0.2f64,
        lang in lang(),
    ) {
        let p = Params::new(weight, best_bias_for_weight(weight) + off);
        let input = visitor(p, history(p.error(), kind, &earlier, step), true, lang);
        prop_assert!(judge(&input).is_ok(), "{:?}", judge(&input));
    }
}
