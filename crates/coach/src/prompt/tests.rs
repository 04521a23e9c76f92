//! The prompt: its fixed parts per lesson, language and tier, its
//! question, its examples drawn per request, its figures.

use super::*;

#[test]
fn the_fixed_parts_are_those_of_the_language_and_tier() {
    for (l, lang) in Lang::ALL.into_iter().enumerate() {
        assert_eq!(lang as usize, l);
        for (t, tier) in Tier::ALL.into_iter().enumerate() {
            assert_eq!(tier as usize, t);
            for (i, lesson) in Which::ALL.into_iter().enumerate() {
                assert_eq!(lesson as usize, i);
                let fixed = fixed(lesson, lang, tier);
                let written = write_fixed(lesson, lang, tier);
                assert_eq!(
                    (&fixed.system, &fixed.choices),
                    (&written.system, &written.choices)
                );
                let role = match lesson {
                    Which::One => words_for(lang).prompt.role,
                    Which::Two => words_for(lang).two.role,
                };
                assert!(fixed.system.contains(role));
            }
        }
    }
}

fn input(error: f64, attempts: &[f64], lang: Lang) -> CoachInput {
    CoachInput::at(error, attempts, lang)
}

#[test]
fn trend_reads_the_history() {
    assert_eq!(Trend::of(900.0, &[]).direction, Direction::First);
    let t = Trend::of(900.0, &[2000.0, 1000.0]);
    assert_eq!(
        (t.direction, t.attempts, t.is_best, t.best),
        (Direction::Improving, 3, true, 900.0)
    );
    let t = Trend::of(1500.0, &[2000.0, 1000.0]);
    assert_eq!(
        (t.direction, t.is_best, t.best),
        (Direction::Worse, false, 1000.0)
    );
    assert_eq!(Trend::of(1000.2, &[1000.0]).direction, Direction::Stuck);
}

#[test]
fn only_the_current_tier_is_in_the_prompt() {
    let far = build(&input(13_359.08, &[], Lang::En));
    assert_eq!(far.tier, Tier::Far);
    assert!(far.system.contains("tease"));
    assert!(!far.system.contains("nudge") && !far.system.contains("celebrate"));
    assert!(far.examples.iter().all(|(_, a)| !a.contains("Perfect fit")));

    let close = build(&input(812.0, &[900.0], Lang::En));
    assert!(close.system.contains("nudge") && !close.system.contains("tease"));

    let goal = build(&input(447.29, &[812.0], Lang::En));
    assert!(goal.system.contains("celebrate") && !goal.system.contains("nudge"));
}

#[test]
fn prompt_has_the_numbers_the_limit_and_the_marker() {
    let p = build(&input(812.5, &[13_359.08, 900.0], Lang::En));
    assert!(p.system.contains("20 words") && p.system.contains(END_MARKER));
    assert_eq!(p.user, "Error now: 812.50 (goal: below 450). Attempt 3, better than the last one; the best so far.");
    assert_eq!(p.examples.len(), 2);
    assert!(p
        .examples
        .iter()
        .all(|(u, a)| u.starts_with("Error now:") && a.ends_with(END_MARKER)));
}

#[test]
fn every_language_and_tier_has_its_own_text() {
    for lang in Lang::ALL {
        for error in [13_359.08, 812.0, 447.29] {
            let p = build(&input(error, &[20_000.0], lang));
            assert_eq!(p.lang, lang);
            assert!(!p.examples.is_empty());
            assert!(p.system.contains(END_MARKER) && p.system.contains("20"));
            assert!(
                !p.user.contains('{'),
                "unfilled placeholder in {:?}",
                p.user
            );
        }
    }
    assert!(build(&input(812.0, &[], Lang::Pt))
        .system
        .contains("português"));
    assert!(build(&input(812.0, &[], Lang::Zh))
        .system
        .contains("简体中文"));
}

#[test]
fn each_prompt_shows_a_drawn_two_of_a_pool_of_six_or_more() {
    for lang in Lang::ALL {
        for (tier, error) in [
            (Tier::Far, 13_359.08),
            (Tier::Close, 812.0),
            (Tier::Goal, 447.29),
        ] {
            let pool = words_for(lang).examples[tier as usize];
            assert!(pool.len() >= 6, "{lang:?} {tier:?}: {}", pool.len());
            let choices = &fixed(Which::One, lang, tier).choices;
            assert_eq!(choices.len(), pool.len() * (pool.len() - 1));
            let input = input(error, &[20_000.0], lang);
            assert_eq!(build(&input), build_drawn(&input, 0));
            let mut seen = std::collections::HashSet::new();
            for draw in 0..choices.len() as u64 {
                let p = build_drawn(&input, draw);
                assert_eq!(p.examples.len(), EXAMPLES_SHOWN);
                assert_ne!(p.examples[0], p.examples[1], "two different ones");
                assert!(p.examples.iter().all(|(_, a)| pool
                    .iter()
                    .any(|(_, _, answer)| *a == format!("{answer} {END_MARKER}"))));
                seen.insert(p.examples.to_vec());
            }
            assert_eq!(seen.len(), choices.len(), "every draw its own choice");
            // The draw is all it depends on.
            assert_eq!(
                build_drawn(&input, 7),
                build_drawn(&input, 7 + choices.len() as u64)
            );
        }
    }
}

#[test]
fn the_figures_are_the_numbers_the_prompt_states() {
    let p = build(&input(13_359.08, &[20_000.0, 9_000.0], Lang::Zh));
    for stated in [13_359.08, 9_000.0, 3.0, 450.0, 12_909.08] {
        assert!(
            p.figures.iter().any(|f| (f - stated).abs() < 1e-9),
            "{stated}: {:?}",
            p.figures
        );
    }
    assert!(p.figures.iter().any(|f| (f - 447.29).abs() < 0.005));
    let with_facts = build(&CoachInput {
        params: Some(lesson::neuron::START),
        lesson: lesson::lessons::Which::One,
        two: None,
        ..input(799.09, &[], Lang::En)
    });
    // weight 0.1, bias 150, 351.80 above the floor, raise the bias by
    // about 13, to about 635 (the statements' numbers).
    for stated in [0.1, 150.0, 351.8, 13.0, 635.0] {
        assert!(
            with_facts.figures.iter().any(|f| (f - stated).abs() < 0.01),
            "{stated}: {:?}",
            with_facts.figures
        );
    }
}

#[test]
fn a_lesson_two_prompt_speaks_of_lesson_two() {
    for lang in Lang::ALL {
        let input = CoachInput::new_two(3431.91, vec![], Some([0.1, 0.0, 150.0]), None, lang)
            .expect("Jay's start");
        let p = build(&input);
        assert_eq!(
            (p.lesson, p.goal, p.tier),
            (Which::Two, 1420.0, Tier::Close)
        );
        assert!(
            p.system.starts_with(words_for(lang).two.role),
            "{}",
            p.system
        );
        assert!(p.facts.is_none() && p.facts_two.is_some());
        assert!(
            !p.user.contains("450") && !p.system.contains("450"),
            "{}",
            p.user
        );
        assert!(
            p.figures.contains(&1420.0) && p.figures.iter().any(|f| (f - 1406.05).abs() < 1e-9)
        );
        for (user, _) in p.examples {
            assert!(!user.contains("450"), "{user}");
        }
        let goal = build(&CoachInput::new_two(1410.0, vec![1500.0], None, None, lang).expect("ok"));
        assert_eq!(goal.tier, Tier::Goal);
        let far = build(&CoachInput::new_two(5000.5, vec![], None, None, lang).expect("ok"));
        assert_eq!(far.tier, Tier::Far);
    }
    let en = build(&CoachInput::new_two(3431.91, vec![], None, None, Lang::En).expect("ok"));
    assert_eq!(
        en.user,
        "Error now: 3,431.91 (goal: below 1,420). Attempt 1, the first one; the best so far."
    );
}
