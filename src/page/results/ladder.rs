//! The goal ladder: 799 → 750 → 600 → 500 → 450 → 447.29 (the floor no line
//! gets below), the thresholds of Jay's score lines. Each rung is ticked once
//! the best attempt is at or below it (for 450, [`lesson::neuron::reaches_goal`]: the rule the
//! score and the chart use), and the newest one is said once, in a polite live
//! region. Under it, Jay's line for the latest attempt
//! ([`lesson::score_line`]): encouragement at each rung, a tease when the
//! line is far off.
//!
//! The rungs are one markup string set with `inner_html` ([`rungs_markup`]):
//! typed `view!` elements and reactive attributes each cost the WASM code of
//! their own, a string costs a few `write!`s.

use std::fmt::Write;

use leptos::prelude::*;

use crate::page::i18n::Texts;
use crate::page::{controls::language::use_texts, model::Attempt, results::attempts::best_index};
use lesson::{
    contour::{rungs_reached, LADDER_ABOVE_FLOOR as RUNGS},
    neuron::min_error,
    score_line::ScoreLine,
};
use vocabulary::fill;

/// How many of the six rungs (the five above the floor, and the floor) an
/// attempt with error `best` has reached. The floor counts as reached at its
/// printed value, 447.29.
pub fn reached(best: f64) -> usize {
    let below = rungs_reached(best);
    let floor = best < min_error() + 0.005;
    below + usize::from(floor)
}

/// A rung's name.
fn rung(t: &Texts, i: usize) -> String {
    let (template, v) = match RUNGS.get(i) {
        Some(r) if i + 1 == RUNGS.len() => (t.rung_goal, t.num(*r, 0)),
        Some(r) => (t.rung_below, t.num(*r, 0)),
        None => (t.rung_floor, t.num(min_error(), 2)),
    };
    fill(template, &[("v", &v)])
}

/// The ladder's rungs as list items, the first `ticked` of them ticked.
/// Numbers and fixed words only.
#[must_use]
pub fn rungs_markup(t: &Texts, ticked: usize) -> String {
    let mut s = String::with_capacity(512);
    for i in 0..=RUNGS.len() {
        let (class, mark) = if ticked > i {
            (r#" class="reached""#, "✓ ")
        } else {
            ("", "○ ")
        };
        let _ = write!(
            s,
            r#"<li{class} data-testid="rung"><span aria-hidden="true">{mark}</span>{}</li>"#,
            rung(t, i)
        );
    }
    s
}

/// Jay's seven score lines as spans (`data-i` = [`ScoreLine::index`]), written by
/// the server alone: the paragraph's `data-line` names the one the stylesheet
/// shows, so the words are not in the WASM and a screen reader reads only it.
#[cfg(feature = "ssr")]
fn score_lines_markup(t: &Texts) -> String {
    let mut s = String::with_capacity(512);
    for (i, line) in t.server.score_lines.iter().enumerate() {
        let _ = write!(s, r#"<span data-i="{i}">{line}</span>"#);
    }
    s
}

#[component]
pub fn Ladder(#[prop(into)] attempts: Signal<Vec<Attempt>>) -> impl IntoView {
    let t = use_texts();
    let count = Memo::new(move |_| {
        attempts.with(|all| best_index(all).map_or(0, |i| reached(all[i].error)))
    });
    let news = move || match count.get() {
        0 => String::new(),
        n => fill(
            t.rung_news,
            &[("n", &n.to_string()), ("rung", &rung(t, n - 1))],
        ),
    };
    // Jay's line for the latest attempt (none before the first, or between 799
    // and 100,000): the server writes all seven, the browser names one.
    let line = move || {
        attempts
            .with(|all| all.last().and_then(|a| ScoreLine::of(a.error)))
            .map(|l| l.index().to_string())
    };
    view! {
        <div class="ladder">
            <ol aria-label=t.ladder inner_html=move || rungs_markup(t, count.get())></ol>
            <p class="ladder-news" data-testid="ladder-news" aria-live="polite">{news}</p>
            <p
                class="score-line"
                data-testid="score-line"
                data-line=line
                inner_html=crate::server_only!(score_lines_markup(t))
            ></p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::i18n::texts;
    use lesson::neuron::reaches_goal;
    use vocabulary::Lang;

    #[test]
    fn one_goal_rule_for_the_ladder_the_score_the_announcer_and_the_coach() {
        // 450.00 was the goal for the score and the coach (≤) but not for the
        // ladder and the chart (<).
        use coach::Tier;
        let en = texts(Lang::En);
        for error in [449.99, 450.0, 450.004, 450.01] {
            let goal = reaches_goal(error);
            assert_eq!(goal, error <= 450.0, "the original server's ≤ 450 tier");
            assert_eq!(reached(error) >= 5, goal, "ladder at {error}");
            assert_eq!(Tier::of(error) == Tier::Goal, goal, "tier at {error}");
            let said = super::super::announcer::sentence(en, error, error);
            assert_eq!(
                said.starts_with("Goal reached"),
                goal,
                "announcer at {error}: {said}"
            );
        }
    }

    #[test]
    fn rungs_are_reached_in_order_down_to_the_floor() {
        assert_eq!(reached(f64::INFINITY), 0);
        assert_eq!(
            reached(799.09),
            0,
            "Jay's start is just above the first rung"
        );
        assert_eq!(reached(790.0), 1);
        assert_eq!(reached(750.0), 2, "Jay's 750 is a rung again");
        assert_eq!(reached(599.99), 3);
        assert_eq!(
            reached(450.0),
            5,
            "450 itself reaches the goal, as the score and the coach's tier say"
        );
        assert_eq!(reached(450.01), 4);
        assert_eq!(reached(449.0), 5);
        assert_eq!(reached(min_error()), 6);
        let en = texts(Lang::En);
        assert_eq!(rung(en, 5), "447.29 (the floor: no line does better)");
        assert_eq!(rung(en, 4), "below 450 (the goal)");
        assert_eq!(rung(en, 1), "below 750");
        assert!(rung(texts(Lang::Pt), 5).starts_with("447,29 "));
        let lines = score_lines_markup(en);
        assert_eq!(lines.matches("<span data-i=").count(), 7);
        assert!(lines.contains(r#"<span data-i="1">Under 750"#), "{lines}");
        let m = rungs_markup(en, 2);
        assert_eq!(m.matches(r#"data-testid="rung""#).count(), 6);
        assert_eq!(m.matches(r#"class="reached""#).count(), 2);
    }
}
