//! The recorded types refuse what is out of shape, naming the field.

use super::*;
use crate::input::{ToolsInput, VisitInput};

fn visit_input() -> VisitInput {
    VisitInput {
        visit: "Zx8_Qm2-Lk9aBc3dEf4gHi".into(),
        lang: "pt-BR".into(),
        layout: "embed".into(),
        width: 390,
        room: Some(" Class-7B ".into()),
        lesson: None,
    }
}

#[test]
fn a_good_visit_is_parsed_and_its_room_case_folded() {
    let v = visit_input().check(Minute(1000)).expect("valid");
    assert_eq!(v.id.as_str(), "Zx8_Qm2-Lk9aBc3dEf4gHi");
    assert_eq!(v.lang, Lang::Pt);
    assert_eq!(v.layout, Layout::Embed);
    assert_eq!(v.device, Device::Phone);
    assert_eq!(v.room.as_ref().map(RoomCode::as_str), Some("class-7b"));
    assert_eq!(v.started, Minute(1000));
    let no_room = VisitInput {
        room: Some("  ".into()),
        ..visit_input()
    };
    assert_eq!(no_room.check(Minute(0)).expect("blank room").room, None);
}

#[test]
fn bad_input_is_refused_naming_the_field() {
    let cases: Vec<(VisitInput, &str)> = vec![
        (
            VisitInput {
                visit: "short".into(),
                ..visit_input()
            },
            "visit",
        ),
        (
            VisitInput {
                visit: "a".repeat(33),
                ..visit_input()
            },
            "visit",
        ),
        (
            VisitInput {
                visit: "192.168.0.1:443/abcdef".into(),
                ..visit_input()
            },
            "visit",
        ),
        (
            VisitInput {
                lang: "fr".into(),
                ..visit_input()
            },
            "lang",
        ),
        (
            VisitInput {
                layout: "iframe".into(),
                ..visit_input()
            },
            "layout",
        ),
        (
            VisitInput {
                width: 0,
                ..visit_input()
            },
            "width",
        ),
        (
            VisitInput {
                width: 100_001,
                ..visit_input()
            },
            "width",
        ),
        (
            VisitInput {
                room: Some("a".repeat(25)),
                ..visit_input()
            },
            "room",
        ),
        (
            VisitInput {
                room: Some("class 7".into()),
                ..visit_input()
            },
            "room",
        ),
        (
            VisitInput {
                room: Some("Mozilla/5.0".into()),
                ..visit_input()
            },
            "room",
        ),
    ];
    for (input, field) in cases {
        let e = input.check(Minute(0)).expect_err(field);
        assert_eq!(e.field, field, "{input:?}: {e}");
        assert!(e.to_string().starts_with(&format!("{field}: ")), "{e}");
    }
    let tools = ToolsInput {
        visit: "Zx8_Qm2-Lk9aBc3dEf4gHi".into(),
        tools: vec!["map".into(), "telemetry".into()],
    };
    assert_eq!(tools.check(Minute(0)).expect_err("tool").field, "tool");
    let many = ToolsInput {
        tools: vec!["map".into(); 65],
        ..tools
    };
    assert_eq!(many.check(Minute(0)).expect_err("tools").field, "tools");

    for (numbers, field) in [
        (AttemptNumbers::new(0, 500.0, 0.1, 150.0, 10), "attempt"),
        (
            AttemptNumbers::new(100_001, 500.0, 0.1, 150.0, 10),
            "attempt",
        ),
        (AttemptNumbers::new(1, f64::NAN, 0.1, 150.0, 10), "error"),
        (AttemptNumbers::new(1, -1.0, 0.1, 150.0, 10), "error"),
        (
            AttemptNumbers::new(1, 500.0, f64::INFINITY, 150.0, 10),
            "weight",
        ),
        (AttemptNumbers::new(1, 500.0, 0.1, 1e13, 10), "bias"),
        (
            AttemptNumbers::new(1, 500.0, 0.1, 150.0, 600_001),
            "latency_ms",
        ),
    ] {
        assert_eq!(numbers.expect_err(field).field, field);
    }
    assert_eq!(
        ModelName::parse("qwen 2.5").expect_err("model").field,
        "model"
    );
    assert_eq!(
        ModelName::parse(&"m".repeat(41)).expect_err("model").field,
        "model"
    );
    assert_eq!(
        Reason::parse("Too Long").expect_err("reason").field,
        "reason"
    );
    assert!(ModelName::parse("offline").is_ok() && Reason::parse("too long").is_ok());
}

#[test]
fn device_classes_follow_the_viewport_width() {
    for (width, device) in [
        (1, Device::Phone),
        (599, Device::Phone),
        (600, Device::Tablet),
        (1023, Device::Tablet),
        (1024, Device::Desktop),
        (100_000, Device::Desktop),
    ] {
        assert_eq!(Device::from_width(width), Ok(device), "{width}");
    }
}

#[test]
fn codes_are_their_serde_names_and_read_back() {
    for &tool in Tool::ALL {
        assert_eq!(Tool::parse(tool.code()), Ok(tool));
        assert_eq!(
            serde_json::to_string(&tool).expect("serialise"),
            format!("\"{}\"", tool.code())
        );
    }
    assert_eq!(Tool::ALL.len(), 7);
    assert_eq!(Tool::DescentLab.code(), "descent_lab");
    assert_eq!(Layout::parse("page"), Ok(Layout::Page));
    let e = Layout::parse("Page").expect_err("codes are exact");
    assert_eq!(e.message, "must be one of page, embed");
}

#[test]
fn minutes_round_down_and_count_days() {
    assert_eq!(Minute::from_unix_seconds(119), Minute(1));
    assert_eq!(Minute::from_unix_seconds(-1), Minute(-1));
    assert_eq!(Minute(1440 * 3 + 5).day(), 3);
    assert_eq!(Minute(10_000).days_before(2), Minute(10_000 - 2880));
}
