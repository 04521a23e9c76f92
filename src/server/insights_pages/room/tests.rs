//! The room view's pure parts: visitors to dots, the funnel's rows, the
//! count line, the words, and the rendered `<main>`.

use super::{
    live::{picture, rungs, Keys, Now, Picture, RoomMap, SPREAD},
    markup::{main, View, SCRIPT},
};
use crate::server::insights_pages::words::language;
use insights::{
    report::{effort::Point, funnel::Funnel, room::RoomVisitor, Which},
    RoomCode, VisitId,
};
use lesson::{
    map::{MapView, PLOT_BOTTOM, PLOT_LEFT, PLOT_RIGHT, PLOT_TOP},
    neuron::Params,
};
use vocabulary::Lang;

/// A render of `now` in `room` (recording on, the server answering).
fn live_view<'a>(lang: Lang, lesson: Which, room: &'a RoomCode, now: &'a Now) -> View<'a> {
    View {
        lang,
        lesson,
        room,
        now,
        off: false,
        stale: false,
        nonce: "n0nce",
    }
}

fn visit(n: u32) -> VisitId {
    VisitId::parse(&format!("VisitVisitVisit{n:04}")).expect("id")
}

fn visitor(n: u32, at: Option<(f64, f64, f64)>, attempts: u64, reached: bool) -> RoomVisitor {
    RoomVisitor {
        visit: visit(n),
        lesson: Which::One,
        attempts,
        latest: at.map(|(weight, bias, error)| Point {
            weight,
            weight2: 0.0,
            bias,
            error,
        }),
        reached,
    }
}

#[test]
fn a_key_is_short_stable_and_never_the_visit_id() {
    let keys = Keys::new();
    let (a, b) = (visit(1), visit(2));
    let key = keys.key(&a);
    assert_eq!(key.len(), 8);
    assert!(key
        .bytes()
        .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    assert_eq!(keys.key(&a), key, "the same visit keeps its key");
    assert_ne!(keys.key(&b), key);
    assert!(!a.as_str().contains(&key));
    // Another server (another secret) gives other keys.
    let other = Keys::new();
    assert!((1..20).any(|n| other.key(&visit(n)) != keys.key(&visit(n))));
}

#[test]
fn each_visitor_who_tried_is_a_dot_at_their_latest_point() {
    let keys = Keys::new();
    let view = MapView::full();
    let visitors = [
        visitor(1, Some((0.1, 150.0, 900.0)), 2, false),
        visitor(2, Some((0.06, 240.0, 449.0)), 7, true),
        visitor(3, None, 0, false),
        // Reached the goal, then moved on: still a star, where it is now.
        visitor(4, Some((0.2, 100.0, 5000.0)), 9, true),
    ];
    let p = picture(&visitors, &keys, RoomMap::One(view));
    assert_eq!((p.visitors, p.reached, p.waiting), (4, 2, 1));
    assert_eq!(p.dots.len(), 3, "the visitor yet to try is not drawn");
    let mut sorted = p.dots.clone();
    sorted.sort_by(|a, b| a.key.cmp(&b.key));
    assert_eq!(p.dots, sorted, "in key order, not by visit id");
    for (v, (w, b)) in [(1, (0.1, 150.0)), (2, (0.06, 240.0)), (4, (0.2, 100.0))] {
        let dot = p
            .dots
            .iter()
            .find(|d| d.key == keys.key(&visit(v)))
            .expect("a dot");
        let (x, y) = view.to_svg(Params::new(w, b));
        assert!((dot.x - x).abs() <= SPREAD + 0.01, "{v}: {} vs {x}", dot.x);
        assert!((dot.y - y).abs() <= SPREAD + 0.01, "{v}: {} vs {y}", dot.y);
        assert_eq!(dot.goal, v != 1);
    }
    let json = serde_json::to_string(&p.dots).expect("json");
    assert!(!json.contains("VisitVisit"), "{json}");
}

#[test]
fn dots_stay_inside_the_plot_and_apart_when_everyone_is_on_one_spot() {
    let keys = Keys::new();
    let crowd: Vec<_> = (0..30)
        .map(|n| visitor(n, Some((0.0, 0.0, 600_000.0)), 1, false))
        .collect();
    let p = picture(&crowd, &keys, RoomMap::of(Which::One));
    let mut spots: Vec<(i64, i64)> = p
        .dots
        .iter()
        .map(|d| {
            assert!((PLOT_LEFT..=PLOT_RIGHT).contains(&d.x), "{}", d.x);
            assert!((PLOT_TOP..=PLOT_BOTTOM).contains(&d.y), "{}", d.y);
            ((d.x * 100.0) as i64, (d.y * 100.0) as i64)
        })
        .collect();
    spots.sort_unstable();
    spots.dedup();
    // Each dot on a spot of its own (two keyed nudges in 65,536² alike, or
    // within 0.01 of each other, are all but impossible).
    assert!(spots.len() >= 29, "30 dots on {} spots", spots.len());
    // A wild point is kept at the plot's corner, nudged inwards.
    let wild = picture(
        &[visitor(1, Some((9.0, -500.0, 1e9)), 1, false)],
        &keys,
        RoomMap::of(Which::One),
    );
    let (x, y) = (wild.dots[0].x, wild.dots[0].y);
    assert!(
        (PLOT_RIGHT - SPREAD - 0.01..=PLOT_RIGHT).contains(&x),
        "{x}"
    );
    assert!(
        (PLOT_BOTTOM - SPREAD - 0.01..=PLOT_BOTTOM).contains(&y),
        "{y}"
    );
}

#[test]
fn the_funnel_rows_are_counts_shares_and_bars_in_the_language() {
    let funnel = Funnel {
        visits: 2000,
        attempted: 1500,
        at_or_below: [1000, 500, 20, 3],
    };
    let pt = rungs(&funnel, Lang::Pt);
    assert_eq!(pt.len(), 6);
    assert_eq!(pt[0].text, "2.000");
    assert_eq!((pt[1].share.as_str(), pt[1].bar), ("75%", 0.75));
    assert_eq!((pt[5].count, pt[5].bar), (3, 0.002));
    assert_eq!(rungs(&funnel, Lang::En)[0].text, "2,000");
    let empty = rungs(&Funnel::default(), Lang::Zh);
    assert!(empty.iter().all(|r| r.bar == 0.0 && r.share == "0%"));
}

#[test]
fn the_count_line_says_who_is_in_the_room_in_each_language() {
    let p = Picture {
        dots: vec![],
        visitors: 1234,
        reached: 3,
        waiting: 2,
    };
    let now = |lang| Now::new("abc", p.clone(), &Funnel::default(), lang).summary;
    assert_eq!(
        now(Lang::En),
        "1,234 in the room · 3 at the goal · 2 yet to try"
    );
    assert_eq!(
        now(Lang::Pt),
        "1.234 na sala · 3 na meta · 2 ainda sem tentar"
    );
    assert_eq!(
        now(Lang::Zh),
        "教室里 1,234 人 · 3 人到达目标 · 2 人尚未尝试"
    );
}

#[test]
fn every_language_has_the_same_placeholders() {
    let holes = |s: &str| {
        let mut v: Vec<String> = s
            .split('{')
            .skip(1)
            .filter_map(|r| r.split_once('}').map(|(h, _)| h.to_string()))
            .collect();
        v.sort();
        v
    };
    let en = language(Lang::En).room;
    for lang in Lang::ALL {
        let w = language(lang).room;
        for (a, b) in [
            (w.title, en.title),
            (w.heading, en.heading),
            (w.count, en.count),
            (w.funnel, en.funnel),
        ] {
            assert_eq!(holes(a), holes(b), "{lang:?}: {a}");
        }
        for (a, b) in w.rows.iter().zip(en.rows) {
            assert_eq!(holes(a), holes(b), "{lang:?}: {a}");
        }
        for s in [w.lead, w.join, w.stale, w.off, w.dot_goal, w.dot_trying] {
            assert!(!s.contains(['<', '>', '&', '{']), "{lang:?}: {s}");
        }
    }
}

#[test]
fn the_main_markup_draws_each_dot_and_carries_the_script_under_the_nonce() {
    let keys = Keys::new();
    let room = RoomCode::parse("Class-7B").expect("room");
    let visitors = [
        visitor(1, Some((0.1, 150.0, 900.0)), 2, false),
        visitor(2, Some((0.06, 240.0, 449.0)), 7, true),
        visitor(3, None, 0, false),
    ];
    let funnel = Funnel {
        visits: 3,
        attempted: 2,
        at_or_below: [1, 1, 1, 1],
    };
    for lang in Lang::ALL {
        let p = picture(&visitors, &keys, RoomMap::of(Which::One));
        let now = Now::new(room.as_str(), p, &funnel, lang);
        let view = live_view(lang, Which::One, &room, &now);
        // minijinja writes `/` as `&#x2f;` in text and attributes (the same).
        let html = main(&view).expect("renders").replace("&#x2f;", "/");
        assert_eq!(html.matches(r#"<g class="dot" data-key="#).count(), 1);
        assert_eq!(html.matches(r#"<g class="dot goal" data-key="#).count(), 1);
        assert!(html.contains(r#"data-testid="landscape-island""#));
        assert!(html.contains(r#"href="/?room=class-7b""#));
        assert!(html.contains(r#"data-now="/insights/room/class-7b/now.json?lang="#));
        assert_eq!(html.matches("data-rung=").count(), 6);
        assert!(html.contains(&now.summary));
        assert!(html.contains(r#"<script nonce="n0nce">"#));
        assert!(!html.contains("style="), "no inline style (CSP)");
        assert!(!html.contains("VisitVisit"));
        assert!(html.contains(r#"class="room-note room-stale" hidden"#));
        assert!(!html.contains(language(lang).room.off));
    }
    assert_eq!(SCRIPT.matches("</").count(), 0, "the script ends only once");
    assert!(!SCRIPT.contains("http:") || SCRIPT.contains("\"http://www.w3.org/2000/svg\""));
    assert!(!SCRIPT.contains("https:"), "no other site");
}

#[test]
fn a_lesson_two_room_draws_its_learners_on_lesson_twos_map() {
    let keys = Keys::new();
    let room = RoomCode::parse("class-7b").expect("room");
    let two = |n, w1, w2, reached| RoomVisitor {
        lesson: Which::Two,
        latest: Some(Point {
            weight: w1,
            weight2: w2,
            bias: 0.0,
            error: 1500.0,
        }),
        ..visitor(n, None, 3, reached)
    };
    let visitors = [
        // Jay's start, and the least-squares point (w2 −10): inside the map.
        two(1, 0.1, 0.0, false),
        two(2, 0.18613, -10.01238, true),
        // A lesson 1 learner in the same room: not on lesson 2's map.
        visitor(3, Some((0.1, 150.0, 900.0)), 2, false),
    ];
    let p = picture(&visitors, &keys, RoomMap::of(Which::Two));
    assert_eq!(p.dots.len(), 2);
    for d in &p.dots {
        assert!((PLOT_LEFT..=PLOT_RIGHT).contains(&d.x) && (PLOT_TOP..=PLOT_BOTTOM).contains(&d.y));
    }
    // w1 0.1 is a fifth of the way across the near view (0.05 to 0.30);
    // w2 0 is half way down (60 to −60), each within the nudge.
    let start = p.dots.iter().find(|d| !d.goal).expect("the start");
    let across = PLOT_LEFT + 0.2 * (PLOT_RIGHT - PLOT_LEFT);
    let down = (PLOT_TOP + PLOT_BOTTOM) / 2.0;
    assert!((start.x - across).abs() <= SPREAD + 0.01, "{start:?}");
    assert!((start.y - down).abs() <= SPREAD + 0.01, "{start:?}");
    let funnel = Funnel {
        visits: 3,
        attempted: 3,
        at_or_below: [2, 1, 1, 1],
    };
    let now = Now::new(room.as_str(), p, &funnel, Lang::Pt);
    let view = live_view(Lang::Pt, Which::Two, &room, &now);
    let html = main(&view).expect("renders").replace("&#x2f;", "/");
    assert!(html.contains(r#"href="/two?room=class-7b""#));
    assert!(
        html.contains("now.json?lang=pt&amp;lesson=2")
            || html.contains("now.json?lang=pt&lesson=2")
    );
    assert!(html.contains(r#"class="two-ground""#) && html.contains(r#"class="island"#));
    assert!(html.contains("Erro de até 2.000") && html.contains("Erro de até 1.423,44"));
    assert!(
        html.contains("Meta: erro abaixo de 1.420"),
        "lesson 2's goal row"
    );
}
