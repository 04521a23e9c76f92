//! The report's body: decoded and checked, each refusal naming its field.

use super::*;
use crate::server::json::decode;

fn events(body: &str) -> Result<Vec<Event>, FieldError> {
    decode::<EventsBody>(body.as_bytes())?.events(Minute(100))
}

const ID: &str = "Zx8_Qm2-Lk9aBc3dEf4gHi";

#[test]
fn a_visit_start_and_tools_make_events() {
    let body = format!(
        r#"{{"visit":"{ID}","lang":"en","layout":"page","width":360,"room":"Class-7B","tools":["map","nudge"]}}"#
    );
    let got = events(&body).expect("good body");
    assert_eq!(got.len(), 3);
    assert!(
        matches!(&got[0], Event::Visit(v) if v.room.as_ref().map(|r| r.as_str()) == Some("class-7b"))
    );
    let tools_only = format!(r#"{{"visit":"{ID}","tools":["descent_lab"]}}"#);
    assert_eq!(events(&tools_only).expect("tools").len(), 1);
}

#[test]
fn each_bad_field_is_named() {
    let cases = [
        (r#"{"visit":"short","tools":["map"]}"#.to_string(), "visit"),
        (r#"{"visit":7,"tools":["map"]}"#.to_string(), "visit"),
        (r#"{"tools":["map"]}"#.to_string(), "visit"),
        (
            format!(r#"{{"visit":"{ID}","lang":"fr","layout":"page","width":360}}"#),
            "lang",
        ),
        (
            format!(r#"{{"visit":"{ID}","lang":"en","layout":"iframe","width":360}}"#),
            "layout",
        ),
        (
            format!(r#"{{"visit":"{ID}","lang":"en","layout":"page","width":0}}"#),
            "width",
        ),
        (
            format!(r#"{{"visit":"{ID}","lang":"en","layout":"page","width":-1}}"#),
            "width",
        ),
        (
            format!(r#"{{"visit":"{ID}","lang":"en","layout":"page"}}"#),
            "width",
        ),
        (
            format!(r#"{{"visit":"{ID}","layout":"page","width":3}}"#),
            "lang",
        ),
        (
            format!(r#"{{"visit":"{ID}","lang":"en","layout":"page","width":360,"room":"a b"}}"#),
            "room",
        ),
        (
            format!(r#"{{"visit":"{ID}","tools":["telemetry"]}}"#),
            "tool",
        ),
        (format!(r#"{{"visit":"{ID}","tools":"map"}}"#), "tools"),
        (format!(r#"{{"visit":"{ID}"}}"#), "tools"),
        ("not json".to_string(), "body"),
        (
            format!(r#"{{"visit":"{ID}","tools":["map"]}} {{}}"#),
            "body",
        ),
    ];
    for (body, field) in cases {
        let e = events(&body).expect_err(&body);
        assert_eq!(e.field, field, "{body}: {e}");
    }
}
