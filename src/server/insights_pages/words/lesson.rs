//! The words that name one lesson's figures on `/insights`: the funnel's
//! steps, the bands of where visits stopped, the goal in the notes and the
//! map's key, filled from the lesson's rungs and goal (`insights::lessons`)
//! in the reader's number format.

use super::Words;
use crate::page::i18n::Texts;
use insights::lessons;
use lesson::lessons::Which;
use vocabulary::fill;

/// One lesson's words, filled.
#[derive(Clone, Debug)]
pub struct LessonWords {
    /// Its name (`Lesson 2: two inputs`).
    pub name: &'static str,
    /// Visits, a first attempt, each rung, the goal.
    pub steps: [String; 6],
    /// Last errors above the first rung, … , between the third and the goal.
    pub bands: [String; 4],
    pub effort_note: String,
    pub goal_island: String,
}

/// A rung or a goal as the lesson's ladder shows it: 799, 2,000, 1,423.44.
pub fn figure(t: &Texts, x: f64) -> String {
    t.num(x, if x.fract() == 0.0 { 0 } else { 2 })
}

/// `lesson`'s words in `w`'s language, its numbers as `t` writes them.
pub fn lesson_words(w: &Words, t: &Texts, lesson: Which) -> LessonWords {
    let index = lesson as usize;
    let goal = w.goal_phrases[index];
    let [a, b, c] = lessons::rungs(lesson).map(|x| figure(t, x));
    let rung = |i: usize, r: &str| fill(w.steps[i], &[("rung", r)]);
    let band = |i: usize| fill(w.bands[i], &[("a", &a), ("b", &b), ("c", &c)]);
    LessonWords {
        name: w.lessons[index],
        steps: [
            w.steps[0].to_string(),
            w.steps[1].to_string(),
            rung(2, &a),
            rung(3, &b),
            rung(4, &c),
            fill(w.steps[5], &[("goal", goal)]),
        ],
        bands: [band(0), band(1), band(2), band(3)],
        effort_note: fill(w.effort_note, &[("goal", goal)]),
        goal_island: fill(w.goal_island, &[("goal", goal)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::i18n::texts;
    use crate::server::insights_pages::words::words;
    use vocabulary::Lang;

    #[test]
    fn each_lesson_names_its_own_rungs_and_goal() {
        let en = |lesson| lesson_words(words(Lang::En), texts(Lang::En), lesson);
        let one = en(Which::One);
        assert_eq!(one.steps[2], "Error 799 or less");
        assert_eq!(one.steps[5], "Reached the goal: error 450 or less");
        assert_eq!(one.bands[3], "Just above the goal, up to 500");
        let two = en(Which::Two);
        assert_eq!(two.steps[4], "Error 1,423.44 or less");
        assert_eq!(two.steps[5], "Reached the goal: error below 1,420");
        assert_eq!(two.bands[1], "1,500 to 2,000");
        let pt = lesson_words(words(Lang::Pt), texts(Lang::Pt), Which::Two);
        assert_eq!(pt.steps[4], "Erro de 1.423,44 ou menos");
        assert!(pt.goal_island.contains("abaixo de 1.420"));
        for lang in Lang::ALL {
            for lesson in Which::ALL {
                let l = lesson_words(words(lang), texts(lang), lesson);
                let all = l.steps.iter().chain(&l.bands);
                for text in all.chain([&l.effort_note, &l.goal_island]) {
                    assert!(!text.contains('{'), "{lang:?} {lesson:?}: {text}");
                }
            }
        }
    }
}
