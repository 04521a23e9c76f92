//! The lab's words in each language: the state changes only with the state, a
//! stall says why, the lesson's promise is what the lab does from the start it states.

use super::*;
use crate::page::i18n::texts;
use lesson::{
    descent::{run, steps_to_goal, ORIGIN},
    neuron::{Params, START},
};
use vocabulary::Lang;

/// Play as the component runs it: one step a tick until the run is finished,
/// the state line read after every tick.
fn play(start: Params, scaling: Scaling, lang: Lang) -> (Descent, Vec<String>) {
    let t = texts(lang);
    let mut d = Descent::new(start, scaling.default_rate(), scaling);
    let mut said = Vec::new();
    while !finished(&d) && d.path.len() <= 1_000 {
        d.advance(1);
        said.push(state_text(t, &d, Mode::Playing));
    }
    (d, said)
}

/// The distinct lines in the order they were said.
fn changes(said: &[String]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for s in said {
        if out.last() != Some(&s.as_str()) {
            out.push(s);
        }
    }
    out
}

#[test]
fn rates_are_written_as_people_write_them() {
    assert_eq!(rate_label(2e-7), "2e-7");
    assert_eq!(rate_label(0.1), "0.1");
    assert_eq!(rate_label(1.0), "1");
    assert_eq!(limit_label(Scaling::Raw.max_stable_rate()), "2.35e-7");
}

#[test]
fn play_at_the_default_rate_stops_at_the_stall_and_says_why_in_each_language() {
    for lang in Lang::ALL {
        let t = texts(lang);
        let (d, said) = play(START, Scaling::Raw, lang);
        // Stopped at step 18, near 690, stalled (not at the goal, not diverged).
        assert_eq!(d.path.len() - 1, 18, "{lang:?}");
        assert_eq!(state(&d, Mode::Playing), State::Stalled { step: 18 });
        // Two states, so two announcements: playing, then stalled.
        let heard = changes(&said);
        assert_eq!(heard.len(), 2, "{lang:?}: {heard:?}");
        assert_eq!(heard[0], t.lab_playing);
        let stall = heard[1];
        assert!(stall.contains("18"), "{stall}");
        // The cure names the checkbox as it is labelled.
        assert!(stall.contains(t.standardise.trim()), "{lang:?}: {stall}");
        assert!(stall.ends_with(t.lab_stalled_raw), "{stall}");
        // The step counter, not announced, goes on changing.
        assert!(
            progress_text(t, &d).contains("690"),
            "{}",
            progress_text(t, &d)
        );
    }
    let en = state_text(
        texts(Lang::En),
        &run(START, 2e-7, Scaling::Raw, 18),
        Mode::Ready,
    );
    assert_eq!(
        en,
        "Stalled at step 18: over 10 steps the error fell by less than 0.1%, and it is still above 450. \
         With raw areas (about 2,000 sq ft) the valley is long and thin, so each step only crawls along it. \
         Choose “Standardise the area”: the valley turns round and the steps head straight for the goal."
    );
    let pt = state_text(
        texts(Lang::Pt),
        &run(START, 2e-7, Scaling::Raw, 18),
        Mode::Ready,
    );
    assert!(
        pt.starts_with("Empacou no passo 18: em 10 passos o erro caiu menos de 0,1% "),
        "{pt}"
    );
}

#[test]
fn too_small_a_rate_on_standardised_areas_says_raise_it() {
    let t = texts(Lang::En);
    let mut d = Descent::new(START, 1e-6, Scaling::Standardised);
    d.advance(10);
    let text = state_text(t, &d, Mode::Ready);
    assert!(text.starts_with("Stalled at step 10:"), "{text}");
    assert!(text.ends_with(t.lab_stalled_slow), "{text}");
}

#[test]
fn from_the_stated_start_standardised_play_reaches_the_goal_in_the_promised_steps() {
    let promised = steps_to_goal(START, 0.1, Scaling::Standardised, 100);
    assert_eq!(promised, Some(11));
    for lang in Lang::ALL {
        let t = texts(lang);
        // The lesson states the start and the number.
        let lesson = lesson(t);
        // As a number of its own ("，11 步" in Chinese, " 11 " elsewhere).
        let numbers: Vec<&str> = lesson
            .split(|c: char| !c.is_ascii_digit() && c != '.' && c != ',')
            .collect();
        assert!(numbers.contains(&"11"), "{lang:?}: {lesson}");
        assert!(lesson.contains(&t.plain(START.bias, 0)), "{lesson}");
        // The lab says it starts there.
        let start = start_text(t, Start::Jays);
        assert!(start.contains(&t.plain(START.weight, 4)), "{start}");
        let (d, said) = play(START, Scaling::Standardised, lang);
        assert_eq!(d.path.len() - 1, 11, "{lang:?}");
        assert_eq!(state(&d, Mode::Ready), State::Goal { at: 11 });
        let heard = changes(&said);
        assert_eq!(heard.len(), 2, "{heard:?}");
        assert!(heard[1].contains("11"), "{}", heard[1]);
    }
    assert_eq!(
        start_text(texts(Lang::En), Start::Jays),
        "Starts from Jay's start: w 0.1, b 150."
    );
    assert_eq!(
        start_text(texts(Lang::Pt), Start::Model(Params::new(0.0585, 247.26))),
        "Começa no ponto do seu modelo: p 0,0585, v 247,26."
    );
}

#[test]
fn pause_ready_and_the_ends_are_each_one_line() {
    let t = texts(Lang::En);
    let start = run(START, 2e-7, Scaling::Raw, 0);
    assert_eq!(state_text(t, &start, Mode::Ready), t.lab_ready);
    let some = run(START, 2e-7, Scaling::Raw, 5);
    assert_eq!(
        state_text(t, &some, Mode::Paused { step: 5 }),
        "Paused at step 5."
    );
    // Manual steps between presses keep the same line.
    let more = run(START, 2e-7, Scaling::Raw, 9);
    assert_eq!(
        state_text(t, &some, Mode::Ready),
        state_text(t, &more, Mode::Ready)
    );
    assert_eq!(
        progress_text(t, &more),
        "Lab: step 9, w 0.1053, b 150, error 690.31"
    );
    let wild = run(START, 1e-6, Scaling::Raw, 200);
    let text = state_text(t, &wild, Mode::Playing);
    assert!(text.starts_with("Diverged at step "), "{text}");
    assert!(
        text.contains("stable below 2.35e-7") && !text.contains("NaN"),
        "{text}"
    );
    assert!(finished(&wild));
    let good = run(START, 0.1, Scaling::Standardised, 11);
    assert_eq!(
        state_text(t, &good, Mode::Playing),
        "Goal reached at step 11: the lab's error is below 450."
    );
}

#[test]
fn the_hints_quote_this_datas_average_and_spread() {
    let en = standardise_hint(texts(Lang::En));
    assert!(en.contains("(2,035 sq ft) in units of 330 sq ft"), "{en}");
    let pt = standardise_hint(texts(Lang::Pt));
    assert!(pt.contains("(2.035 pés²) em unidades de 330 pés²"), "{pt}");
    for lang in Lang::ALL {
        let t = texts(lang);
        // The ready line names the buttons as they are labelled.
        assert!(
            t.lab_ready.contains(t.step) && t.lab_ready.contains(t.play),
            "{lang:?}"
        );
    }
}

#[test]
fn from_zero_with_jays_rates_the_counter_shows_his_point_after_1_10_and_100_steps() {
    // The numbers of `lesson::descent`'s pinned run (descent/jays_rates.rs), as
    // the page writes them; the Playwright test reads the same lines.
    let expected = [
        (
            Lang::En,
            [
                "Lab: step 1, w 0.0075, b 366.27, error 964.54",
                "Lab: step 10, w 0.0077, b 350.71, error 728.64",
                "Lab: step 100, w 0.0123, b 341.4, error 680.27",
            ],
        ),
        (
            Lang::Pt,
            [
                "Laboratório: passo 1, p 0,0075, v 366,27, erro 964,54",
                "Laboratório: passo 10, p 0,0077, v 350,71, erro 728,64",
                "Laboratório: passo 100, p 0,0123, v 341,4, erro 680,27",
            ],
        ),
        (
            Lang::Zh,
            [
                "实验：第 1 步，w 0.0075，b 366.27，误差 964.54",
                "实验：第 10 步，w 0.0077，b 350.71，误差 728.64",
                "实验：第 100 步，w 0.0123，b 341.4，误差 680.27",
            ],
        ),
    ];
    for (lang, lines) in expected {
        let t = texts(lang);
        for (steps, line) in [1, 10, 100].into_iter().zip(lines) {
            let d = run(ORIGIN, Rates::JAY, Scaling::Raw, steps);
            assert_eq!(progress_text(t, &d), line);
            assert_eq!(state_text(t, &d, Mode::Ready), t.lab_ready);
        }
    }
    assert_eq!(
        start_text(texts(Lang::En), Start::Origin),
        "Starts from w 0, b 0, as Jay's gradient descent does."
    );
    assert_eq!(rates_label(Rates::JAY), "1e-8 / 1");
    assert_eq!(rates_label(Rates::one(2e-7)), "2e-7");
}
