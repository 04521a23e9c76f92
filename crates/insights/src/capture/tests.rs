//! The outcome mapping and the opt-out headers.

use http::{HeaderMap, HeaderValue};

use super::*;
use coach::{Tier, Tried};
use vocabulary::Lang;

fn comment(fallback: bool, limited: Option<Limited>, tried: Vec<Tried>) -> Comment {
    Comment {
        comment: "typed words never stored".into(),
        model: if fallback { "offline" } else { "qwen-7b" }.into(),
        provider: "chat".into(),
        tier: Tier::Close,
        lang: Lang::Pt,
        latency_ms: 900_000,
        fallback,
        limited,
        tried,
        id: None,
    }
}

fn tried(outcome: Outcome) -> Tried {
    Tried {
        model: "qwen-7b".into(),
        outcome,
        latency_ms: 5,
        served_by: None,
    }
}

#[test]
fn outcomes_follow_the_documented_mapping() {
    assert_eq!(
        outcome_of(&comment(false, None, vec![])),
        AttemptOutcome::Served
    );
    assert_eq!(
        outcome_of(&comment(true, None, vec![tried(Outcome::Timeout)])),
        AttemptOutcome::Offline
    );
    let why = |c: &Comment| outcome_of(c).reason().map(|r| r.as_str().to_string());
    let too_long = comment(
        true,
        None,
        vec![tried(Outcome::Rejected("too long".into()))],
    );
    assert_eq!(why(&too_long).as_deref(), Some("too long"));
    let odd = comment(
        true,
        None,
        vec![tried(Outcome::Rejected("Ünïcode!".into()))],
    );
    assert_eq!(why(&odd).as_deref(), Some("rejected"));
    let limited = comment(true, Some(Limited::DailyBudget), vec![]);
    assert_eq!(why(&limited).as_deref(), Some("limited: daily_budget"));
}

#[test]
fn an_attempt_keeps_the_comments_model_and_caps_its_latency() {
    let visit = VisitId::parse("Zx8_Qm2-Lk9aBc3dEf4gHi").expect("id");
    let point = AskedPoint {
        number: 2,
        error: 612.5,
        point: LessonPoint::One(Params {
            weight: 0.1,
            bias: 150.0,
        }),
    };
    let a = attempt_of(visit.clone(), point, &comment(false, None, vec![])).expect("attempt");
    assert_eq!(a.model.as_str(), "qwen-7b");
    assert_eq!(a.lang, Lang::Pt);
    assert_eq!(a.numbers.latency_ms(), AttemptNumbers::MAX_LATENCY_MS);
    assert_eq!(a.numbers.lesson(), lesson::lessons::Which::One);
    let two = AskedPoint {
        point: LessonPoint::Two([0.18, -10.0, 3.5]),
        ..point
    };
    let a = attempt_of(visit.clone(), two, &comment(false, None, vec![])).expect("attempt");
    assert_eq!(a.numbers.lesson(), lesson::lessons::Which::Two);
    assert_eq!(
        (a.numbers.weight(), a.numbers.weight2(), a.numbers.bias()),
        (0.18, Some(-10.0), 3.5)
    );
    let far = AskedPoint {
        point: LessonPoint::Two([0.1, f64::INFINITY, 0.0]),
        ..point
    };
    assert!(attempt_of(visit.clone(), far, &comment(false, None, vec![])).is_none());
    let bad = AskedPoint { number: 0, ..point };
    assert!(attempt_of(visit, bad, &comment(false, None, vec![])).is_none());
}

#[test]
fn dnt_or_gpc_opts_out() {
    let with = |name: &'static str, value: &'static str| {
        let mut h = HeaderMap::new();
        h.insert(name, HeaderValue::from_static(value));
        h
    };
    assert!(opted_out(&with("dnt", "1")));
    assert!(opted_out(&with("sec-gpc", "1")));
    assert!(!opted_out(&with("dnt", "0")));
    assert!(!opted_out(&HeaderMap::new()));
}
