//! The reply check in lesson 2: its goal is 1,420.

use super::*;
use crate::{input::CoachInput, prompt::build};

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
