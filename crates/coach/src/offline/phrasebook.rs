//! The offline commentator's phrasebook: its openers by [`Situation`], per
//! language ([`en`], [`pt`], [`zh`]), and the facts that pick the situation.
//!
//! A situation is where the visitor stands ([`Distance`]: far, middle, close
//! or at the goal, by the error alone) and how they got there ([`Progress`]:
//! the first attempt, a new best, better or worse than the last one, or about
//! the same, by the history alone). Each situation has its own phrases, so an
//! opener never says more than these facts: no praise after a worse attempt
//! or when far, "close" only within [`CLOSE_MARGIN`] of the goal, the goal
//! only when it is reached. Openers never name a slider: the one concrete
//! step comes from [`lesson::advice`] (the hint of [`super::facts`]) and
//! follows the opener, so the two cannot disagree.
//!
//! In a phrase, `{error}`, `{best}` (the lowest error so far), `{goal}`
//! (the lesson's: 450, or 1,420), `{to_go}` (`error − goal`, never at the
//! goal), `{attempt}` (the number), `{attempts}` ("3 attempts":
//! [`Phrasebook::attempts_one`] and [`Phrasebook::attempts_many`]) and
//! `{min}` (the floor, 447.29 or 1,406.05, only at the goal) are filled in. Pure data and the rules that pick a cell; the choice of a phrase
//! in it is the commentator's (`coach::offline`).

use crate::{
    prompt::trend::{Direction, Trend},
    response::Tier,
};
use lesson::{
    lessons::{Which, GOAL_TWO},
    neuron::GOAL,
};
use vocabulary::Lang;

pub mod en;
pub mod pt;
pub mod zh;

#[cfg(test)]
pub(crate) mod judge;
#[cfg(test)]
mod tests;

/// "Close" means at most this far above the goal (error ≤ 600): the last
/// stretch, where the hint's steps are small. From Jay's start (799.09) the
/// visitor is not close yet.
pub const CLOSE_MARGIN: f64 = 150.0;

/// Where the visitor stands, by the current error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Distance {
    /// Above [`Tier::far_above`] (the far tier).
    Far,
    /// Between close and far: 600 < error ≤ 2000.
    Middle,
    /// Within [`CLOSE_MARGIN`] above the goal: 450 < error ≤ 600.
    Close,
    /// At or below the goal, 450.
    Goal,
}

impl Distance {
    pub const ALL: [Distance; 4] = [
        Distance::Far,
        Distance::Middle,
        Distance::Close,
        Distance::Goal,
    ];

    /// Lesson 1's distance of `error`.
    pub fn of(error: f64) -> Self {
        Self::in_lesson(Which::One, error)
    }

    /// The distance of `error` in `lesson`: far as its far tier is
    /// ([`Tier::far_above`]); lesson 2's close is within 80 of its goal
    /// (1,420 to 1,500: the last stretch, where the area alone stalls).
    pub fn in_lesson(lesson: Which, error: f64) -> Self {
        let (goal, close) = match lesson {
            Which::One => (GOAL, CLOSE_MARGIN),
            Which::Two => (GOAL_TWO, 80.0),
        };
        let far = Tier::far_above(lesson);
        if lesson.reaches_goal(error) {
            Distance::Goal
        } else if error <= goal + close {
            Distance::Close
        } else if error <= far {
            Distance::Middle
        } else {
            Distance::Far
        }
    }
}

/// How the visitor got there, by the history ([`Trend`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Progress {
    /// No earlier attempt.
    First,
    /// Better than the last attempt and than every earlier one.
    NewBest,
    /// Better than the last attempt, not the best so far.
    Better,
    /// Worse than the last attempt.
    Worse,
    /// About the same as the last attempt ([`Direction::Stuck`]).
    Stuck,
}

impl Progress {
    pub const ALL: [Progress; 5] = [
        Progress::First,
        Progress::NewBest,
        Progress::Better,
        Progress::Worse,
        Progress::Stuck,
    ];

    pub fn of(trend: &Trend) -> Self {
        match trend.direction {
            Direction::First => Progress::First,
            Direction::Improving if trend.is_best => Progress::NewBest,
            Direction::Improving => Progress::Better,
            Direction::Worse => Progress::Worse,
            Direction::Stuck => Progress::Stuck,
        }
    }
}

/// One cell of the phrasebook.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Situation {
    pub progress: Progress,
    pub distance: Distance,
}

impl Situation {
    /// `history` holds the earlier errors, oldest first.
    pub fn of(error: f64, history: &[f64]) -> Self {
        Self::in_lesson(Which::One, error, history)
    }

    /// The situation of `error` in `lesson`.
    pub fn in_lesson(lesson: Which, error: f64, history: &[f64]) -> Self {
        Self {
            progress: Progress::of(&Trend::of(error, history)),
            distance: Distance::in_lesson(lesson, error),
        }
    }

    /// Every situation.
    pub fn all() -> impl Iterator<Item = Situation> {
        Progress::ALL.into_iter().flat_map(|progress| {
            Distance::ALL
                .into_iter()
                .map(move |distance| Situation { progress, distance })
        })
    }
}

/// One progress's phrases, by distance.
pub struct Row {
    pub far: &'static [&'static str],
    pub middle: &'static [&'static str],
    pub close: &'static [&'static str],
    pub goal: &'static [&'static str],
}

/// The offline commentator's openers in one language.
pub struct Phrasebook {
    pub first: Row,
    pub new_best: Row,
    pub better: Row,
    pub worse: Row,
    pub stuck: Row,
    /// "{n} attempt" and "{n} attempts": `{attempts}`, so one attempt is
    /// never "1 attempts".
    pub attempts_one: &'static str,
    pub attempts_many: &'static str,
    /// What the tests read an opener for, in this language.
    #[cfg(test)]
    pub keys: Keys,
}

/// The keywords the tests' judge ([`judge`]) reads an opener for, lower-cased.
#[cfg(test)]
pub struct Keys {
    /// Words that praise.
    pub praise: &'static [&'static str],
    /// Words that call the error close to the goal.
    pub closeness: &'static [&'static str],
    /// Words that say the goal is reached.
    pub goal_claims: &'static [&'static str],
}

impl Phrasebook {
    /// The phrases for `situation` (never empty: a test holds every cell to
    /// at least four).
    pub fn phrases(&self, situation: Situation) -> &'static [&'static str] {
        let row = match situation.progress {
            Progress::First => &self.first,
            Progress::NewBest => &self.new_best,
            Progress::Better => &self.better,
            Progress::Worse => &self.worse,
            Progress::Stuck => &self.stuck,
        };
        match situation.distance {
            Distance::Far => row.far,
            Distance::Middle => row.middle,
            Distance::Close => row.close,
            Distance::Goal => row.goal,
        }
    }
}

/// The phrasebook of `lang`.
pub fn phrasebook(lang: Lang) -> &'static Phrasebook {
    match lang {
        Lang::En => &en::PHRASES,
        Lang::Pt => &pt::PHRASES,
        Lang::Zh => &zh::PHRASES,
    }
}
