//! The reply check in lesson 2: its goal is 1,420.

use super::*;
use crate::{input::CoachInput, prompt::build};
use vocabulary::Lang;

#[test]
fn in_lesson_two_the_goal_is_1420() {
    let above = build(
        &CoachInput::new_two(
            1500.0,
            vec![1600.0],
            Some(point_near(1500.0)),
            None,
            Lang::En,
        )
        .expect("ok"),
    );
    for claim in ["Below 1,420! Great work.", "Goal reached, well done!"] {
        assert_eq!(check(claim, &above), Err(Rejection::ClaimsGoal), "{claim}");
    }
    assert!(check("Aim for below 1,420 next: small steps.", &above).is_ok());
    let at = build(&CoachInput::new_two(1410.0, vec![1500.0], None, None, Lang::Pt).expect("ok"));
    assert!(check("Abaixo de 1.420! Que belo trabalho.", &at).is_ok());
}

/// A lesson 2 point whose error is `error` (moving the bias up from its best).
fn point_near(error: f64) -> [f64; 3] {
    let two = &lesson::lessons::TWO;
    let (w1, w2) = (0.18613, -10.01238);
    let best_b = two.best_bias(&[w1, w2, 0.0]);
    let base = two.error(&[w1, w2, best_b]);
    [w1, w2, best_b + (error - base).max(0.0).sqrt()]
}

#[test]
fn in_lesson_two_a_move_against_the_facts_is_refused() {
    // Jay's start: the bias's best single move is down (to about 130).
    let start = build(
        &CoachInput::new_two(3431.91, vec![], Some([0.1, 0.0, 150.0]), None, Lang::En)
            .expect("Jay's start"),
    );
    let facts = start.facts_two.clone().expect("facts");
    assert_eq!(facts.moves[2].way, lesson::advice::Way::Down);
    assert!(matches!(
        check("Raise the bias a little, you are on your way.", &start),
        Err(Rejection::Contradicts(_))
    ));
    assert!(check("Lower the bias a little, you are on your way.", &start).is_ok());
    // "The weight" names either weight: refused only when both say no.
    let either = facts.moves[0].way != facts.moves[1].way;
    let up = check("Raise the weight a little, you are on your way.", &start);
    let down = check("Lower the weight a little, you are on your way.", &start);
    if either {
        assert!(up.is_ok() && down.is_ok(), "{up:?} {down:?}");
    }
}

#[test]
fn lesson_two_answers_are_held_to_lesson_twos_examples() {
    let p = build(&CoachInput::new_two(1406.05, vec![1419.0], None, None, Lang::En).expect("ok"));
    let example = "Perfect! 1,406.05 is the best two inputs can do. You trained it by hand!";
    assert_eq!(check(example, &p), Err(Rejection::CopiesExample));
}
