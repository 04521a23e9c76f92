//! The best single move in any described lesson ([`Lesson`]): what a coach
//! may say of a point with any number of parameters, in pure code so that
//! no model has to do arithmetic.
//!
//! With the others held, the mean squared error is a parabola in each
//! parameter alone, so each parameter's best value is one Newton step away:
//! `p* = p − g / h`, with `g` the gradient's entry and `h = 2·mean(x²)` its
//! curvature (`x` the parameter's input; 1 for the bias), kept within the
//! parameter's slider (past its end, the end is the best). The best single
//! move is the one whose error after is lowest (not the gradient's largest
//! entry: the inputs' scales differ by thousands, see [`crate::advice`]).
//! Lesson 1's own facts ([`crate::advice`]) agree with these on its two
//! parameters; this module serves the lessons after it.

use crate::advice::{Way, NEGLIGIBLE};
use crate::description::Lesson;

/// Moving one parameter to its best value for the others.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Move {
    /// The parameter's index (the weights in the inputs' order, the bias last).
    pub param: usize,
    pub way: Way,
    /// How far, in the parameter's own units.
    pub by: f64,
    pub error_after: f64,
}

/// The facts about a point of a lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct PointFacts {
    pub point: Vec<f64>,
    pub error: f64,
    /// How far above the lesson's floor.
    pub above_floor: f64,
    /// Each parameter's single move, in the parameters' order.
    pub moves: Vec<Move>,
    /// The move that helps most; `None` when none wins [`NEGLIGIBLE`].
    pub best_move: Option<Move>,
}

impl PointFacts {
    /// The facts of `point` (one value per parameter) in `lesson`.
    #[must_use]
    pub fn of(lesson: &Lesson, point: &[f64]) -> Self {
        let error = lesson.error(point);
        let floor = lesson.optimum().map_or(0.0, |best| lesson.error(&best));
        let gradient = lesson.gradient(point);
        let n = lesson.examples.len().max(1) as f64;
        let moves: Vec<Move> = (0..lesson.params.len())
            .map(|i| {
                let curvature = 2.0
                    * lesson
                        .examples
                        .iter()
                        .map(|e| e.inputs.get(i).copied().unwrap_or(1.0).powi(2))
                        .sum::<f64>()
                    / n;
                let newton = if curvature > 0.0 {
                    -gradient[i] / curvature
                } else {
                    0.0
                };
                // Within the slider: past its end the best reachable is the end.
                let spec = lesson.params[i];
                let step = (point[i] + newton).clamp(spec.min, spec.max) - point[i];
                let mut after = point.to_vec();
                after[i] += step;
                Move {
                    param: i,
                    way: if step >= 0.0 { Way::Up } else { Way::Down },
                    by: step.abs(),
                    error_after: lesson.error(&after),
                }
            })
            .collect();
        let best_move = moves
            .iter()
            .copied()
            .min_by(|a, b| a.error_after.total_cmp(&b.error_after))
            .filter(|m| error - m.error_after >= NEGLIGIBLE);
        Self {
            point: point.to_vec(),
            error,
            above_floor: (error - floor).max(0.0),
            moves,
            best_move,
        }
    }

    /// Whether advice to move parameter `param` the `way` way goes against
    /// the facts: that move alone raises the error.
    #[must_use]
    pub fn contradicts(&self, param: usize, way: Way) -> bool {
        self.moves
            .get(param)
            .is_some_and(|m| self.error - m.error_after >= NEGLIGIBLE && m.way != way)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        advice::Facts,
        lessons::{FLOOR_TWO, ONE, TWO},
        neuron::Params,
    };

    #[test]
    fn lesson_ones_moves_are_its_own_facts() {
        // Points whose best moves stay on the sliders (lesson 1's facts do
        // not stop at a slider's end; these do).
        for (w, b) in [(0.1, 150.0), (0.09, 200.0), (0.0585, 247.3)] {
            let mine = PointFacts::of(&ONE, &[w, b]);
            let theirs = Facts::of(Params::new(w, b));
            let (wm, bm) = (mine.moves[0], mine.moves[1]);
            assert!((wm.error_after - theirs.weight_move.error_after).abs() < 1e-6);
            assert!((bm.error_after - theirs.bias_move.error_after).abs() < 1e-6);
            assert!((bm.by - theirs.bias_move.by).abs() < 1e-6);
        }
    }

    #[test]
    fn at_jays_start_of_lesson_two() {
        let f = PointFacts::of(&TWO, &[0.1, 0.0, 150.0]);
        assert!(
            (f.above_floor - (3431.91 - FLOOR_TWO)).abs() < 0.01,
            "{}",
            f.above_floor
        );
        let best = f.best_move.expect("far from the floor");
        // Each move lands at its parabola's bottom: the error after is the least along it.
        for m in &f.moves {
            let mut p = f.point.clone();
            let sign = if m.way == Way::Up { 1.0 } else { -1.0 };
            for d in [-0.01, 0.01] {
                p[m.param] = f.point[m.param] + sign * m.by * (1.0 + d);
                assert!(TWO.error(&p) >= m.error_after - 1e-9);
            }
        }
        assert!(f.moves.iter().all(|m| m.error_after >= best.error_after));
        assert!(f.contradicts(
            best.param,
            if best.way == Way::Up {
                Way::Down
            } else {
                Way::Up
            }
        ));
        assert!(!f.contradicts(best.param, best.way));
        // At the optimum no move helps.
        let at = TWO.optimum().expect("optimum");
        assert!(PointFacts::of(&TWO, &at).best_move.is_none());
        // A move never leaves its slider.
        let f = PointFacts::of(&TWO, &[0.329, 34.05, 266.86]);
        for m in &f.moves {
            let sign = if m.way == Way::Up { 1.0 } else { -1.0 };
            let to = f.point[m.param] + sign * m.by;
            let spec = TWO.params[m.param];
            assert!((spec.min - 1e-9..=spec.max + 1e-9).contains(&to), "{m:?}");
        }
    }
}
