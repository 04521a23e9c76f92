//! Lesson 2's facts about a point ([`lesson::moves`]) in words: the three
//! parameters, how far the error is above the floor, that the area alone
//! cannot reach the goal, and the single move that helps most; as
//! statements for a model's prompt and as the offline commentator's hint.
//! Its words are in `crate::words::two`.

use crate::{
    prompt::facts::{amount, printed},
    words::words_for,
};
use lesson::{
    advice::{roughly, Way},
    lessons::{Which, AREA_ALONE, TWO},
    moves::{Move, PointFacts},
};
use vocabulary::{
    fill,
    format::{grouped_in, localise, plain},
    Lang,
};

/// Decimals of w1, w2 and b as the statements print them.
const DECIMALS: [usize; 3] = [4, 1, 1];
const ABOVE_DECIMALS: usize = 2;
const AFTER_DECIMALS: usize = 0;

/// The facts of a lesson 2 point.
#[must_use]
pub fn of(point: [f64; 3]) -> PointFacts {
    PointFacts::of(&TWO, &point)
}

fn way(lang: Lang, way: Way) -> &'static str {
    let w = &words_for(lang).facts;
    match way {
        Way::Up => w.up,
        Way::Down => w.down,
    }
}

fn move_words(lang: Lang, m: &Move) -> [(&'static str, String); 3] {
    let w = words_for(lang).two;
    [
        ("way", way(lang, m.way).to_string()),
        (
            "param",
            w.params
                .get(m.param)
                .copied()
                .unwrap_or_default()
                .to_string(),
        ),
        ("by", amount(m.by, lang)),
    ]
}

/// The facts as statements for a prompt.
#[must_use]
pub fn statements(lang: Lang, facts: &PointFacts) -> String {
    let w = words_for(lang).two;
    let value = |i: usize| localise(plain(facts.point[i], DECIMALS[i]), lang);
    let mut text = fill(
        w.intro,
        &[
            ("w1", &value(0)),
            ("w2", &value(1)),
            ("b", &value(2)),
            (
                "above",
                &grouped_in(facts.above_floor, ABOVE_DECIMALS, lang),
            ),
            ("min", &grouped_in(Which::Two.floor(), ABOVE_DECIMALS, lang)),
            ("alone", &grouped_in(AREA_ALONE, 2, lang)),
        ],
    );
    text.push_str(words_for(lang).separator);
    match &facts.best_move {
        Some(m) => {
            let [way, param, by] = move_words(lang, m);
            let after = grouped_in(m.error_after, AFTER_DECIMALS, lang);
            text.push_str(&fill(
                w.best_move,
                &[
                    (way.0, &way.1),
                    (param.0, &param.1),
                    (by.0, &by.1),
                    ("after", &after),
                ],
            ));
        }
        None => text.push_str(w.no_move),
    }
    text
}

/// The numbers the statements print, as printed and unrounded: the point,
/// the error above the floor, the area alone's best, and every move's
/// amount and error after.
#[must_use]
pub fn figures(facts: &PointFacts) -> Vec<f64> {
    let mut out = Vec::new();
    for (v, d) in facts.point.iter().zip(DECIMALS) {
        out.extend(printed(*v, d));
    }
    out.extend(printed(facts.above_floor, ABOVE_DECIMALS));
    out.extend(printed(AREA_ALONE, 2));
    for m in &facts.moves {
        out.extend(printed(m.by, 7));
        out.push(roughly(m.by));
        out.extend(printed(m.error_after, AFTER_DECIMALS));
    }
    out
}

/// The offline commentator's step: the best single move; `None` when none helps.
#[must_use]
pub fn hint(lang: Lang, facts: &PointFacts) -> Option<String> {
    let m = facts.best_move.as_ref()?;
    let [way, param, by] = move_words(lang, m);
    Some(fill(
        words_for(lang).two.hint,
        &[(way.0, &way.1), (param.0, &param.1), (by.0, &by.1)],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_jays_start_the_facts_name_one_move_and_the_area_alone() {
        let facts = of([0.1, 0.0, 150.0]);
        let en = statements(Lang::En, &facts);
        assert!(en.starts_with("Facts (say them in your own words, never contradict them): w1 0.1, w2 0, b 150; the error is 2,025.86 above the lowest possible, 1,406.05; the area alone (w2 = 0) cannot get below 1,423.44."), "{en}");
        assert!(en.contains("The single move that helps most: "), "{en}");
        let pt = statements(Lang::Pt, &facts);
        assert!(pt.contains("1.423,44") && pt.contains("w1 0,1"), "{pt}");
        let zh = statements(Lang::Zh, &facts);
        assert!(zh.contains("仅靠面积"), "{zh}");
        for lang in Lang::ALL {
            assert!(hint(lang, &facts).is_some());
        }
        let figures = figures(&facts);
        assert!(figures.iter().any(|f| (f - 2025.86).abs() < 0.005));
        assert!(figures.contains(&AREA_ALONE));
    }

    #[test]
    fn at_the_floor_no_move_is_left() {
        let best = TWO.optimum().expect("optimum");
        let facts = of([best[0], best[1], best[2]]);
        assert!(statements(Lang::En, &facts)
            .ends_with("No single slider can lower the error any more."));
        assert_eq!(hint(Lang::En, &facts), None);
    }
}
