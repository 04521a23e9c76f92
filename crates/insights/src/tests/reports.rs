//! Every report on the hand-made history (`data.rs`), against numbers worked
//! out by hand from its table.

use super::{
    data::{history, id, period},
    on_both, TestDb,
};
use crate::{
    report::{
        coach::Latency,
        effort::{Effort, Point},
        funnel::{Day, Funnel},
        tools::Group,
    },
    sink::Sink,
    Filter, Minute, RoomCode, Tool,
};
use vocabulary::Lang;

async fn loaded(db: &TestDb) {
    db.store
        .write(&history())
        .await
        .expect("the history is written");
}

fn group(visits: u64, reached_goal: u64, median: Option<f64>) -> Group {
    Group {
        visits,
        reached_goal,
        median_attempts_to_goal: median,
    }
}

on_both!(
    funnel_and_days,
    effort_and_points,
    what_helps,
    the_coach,
    a_room_now
);

async fn funnel_and_days(db: &TestDb) {
    loaded(db).await;
    let s = &db.store;
    // v1 v2 v3 v4 v5 v7 v8; attempted: all but v5, v8; best 447.5, 700, 450,
    // 440, 560: ≤799 5, ≤600 4 (not v2), ≤500 3 (not v7), ≤450 3.
    assert_eq!(
        s.funnel(&period()).await.expect("funnel"),
        Funnel {
            visits: 7,
            attempted: 5,
            at_or_below: [5, 4, 3, 3],
        }
    );
    let en = Filter {
        lang: Some(Lang::En),
        ..period()
    };
    // v1 v2 v5 v7 v8 (v2's repeat in zh changed nothing).
    assert_eq!(
        s.funnel(&en).await.expect("en"),
        Funnel {
            visits: 5,
            attempted: 3,
            at_or_below: [3, 2, 1, 1],
        }
    );
    let room = Filter {
        room: Some(RoomCode::parse("CLASS-7b").expect("room")),
        ..period()
    };
    assert_eq!(
        s.funnel(&room).await.expect("room"),
        Funnel {
            visits: 2,
            attempted: 2,
            at_or_below: [2, 2, 2, 2],
        }
    );
    let both = Filter {
        lang: Some(Lang::Pt),
        ..room.clone()
    };
    assert_eq!(s.funnel(&both).await.expect("pt room").visits, 1);
    let empty = Filter::period(Minute(0), Minute(10));
    assert_eq!(s.funnel(&empty).await.expect("empty"), Funnel::default());

    let days = s.per_day(&period()).await.expect("per day");
    assert_eq!(
        days,
        vec![
            Day {
                day: 20_000,
                visits: 5,
                reached_goal: 2
            },
            Day {
                day: 20_001,
                visits: 2,
                reached_goal: 1
            },
        ]
    );
    assert!((days[0].goal_rate() - 0.4).abs() < 1e-12);
}

async fn effort_and_points(db: &TestDb) {
    loaded(db).await;
    let s = &db.store;
    // v1: attempt 3 at minute 3; v3: attempt 3 at minute 5; v4: attempt 1 at once.
    let effort = s.effort(&period()).await.expect("effort");
    assert_eq!(
        effort,
        Effort {
            attempts: vec![1, 3, 3],
            minutes: vec![0, 3, 5],
        }
    );
    assert_eq!(effort.median_attempts(), Some(3.0));
    assert_eq!(effort.median_minutes(), Some(3.0));

    let p = |weight, bias, error| Point {
        weight,
        weight2: 0.0,
        bias,
        error,
    };
    let points = s.points(&period(), 10).await.expect("points");
    // v7's last (minute 30) before v2's (minute 11).
    assert_eq!(
        points.stuck,
        vec![p(0.05, 300.0, 560.0), p(0.15, 100.0, 700.0)]
    );
    // By visit id: v1 (up to its first goal, not after), v3, v4.
    assert_eq!(
        points.paths,
        vec![
            vec![
                p(0.1, 150.0, 799.09),
                p(0.06, 150.0, 620.0),
                p(0.058, 250.0, 449.0)
            ],
            vec![
                p(0.07, 200.0, 550.0),
                p(0.06, 230.0, 480.0),
                p(0.059, 240.0, 450.0)
            ],
            vec![p(0.0584, 247.3, 440.0)],
        ]
    );
    // Capped: the latest visits (v4 and v3 reached the goal; v7 stopped last).
    let capped = s.points(&period(), 2).await.expect("capped");
    assert_eq!(capped.stuck.len(), 2);
    assert_eq!(capped.paths.len(), 2);
    assert_eq!(capped.paths[0].len(), 3, "v3");
    assert_eq!(capped.paths[1].len(), 1, "v4");
    let one = s.points(&period(), 1).await.expect("one");
    assert_eq!(one.stuck, vec![p(0.05, 300.0, 560.0)]);
}

async fn what_helps(db: &TestDb) {
    loaded(db).await;
    let tools = db.store.tools(&period()).await.expect("tools");
    assert_eq!(tools.len(), Tool::ALL.len());
    // First attempt at the goal per visit: v1 3, v3 3, v4 1; v2 v5 v7 v8 none.
    let expected = [
        (
            Tool::DescentLab,
            group(1, 1, Some(3.0)),
            group(6, 2, Some(2.0)),
        ),
        (Tool::Map, group(2, 2, Some(3.0)), group(5, 1, Some(1.0))),
        (
            Tool::BestResponse,
            group(0, 0, None),
            group(7, 3, Some(3.0)),
        ),
        (Tool::Nudge, group(2, 1, Some(3.0)), group(5, 2, Some(2.0))),
        (Tool::TypedValue, group(0, 0, None), group(7, 3, Some(3.0))),
        (
            Tool::SharedLink,
            group(1, 1, Some(1.0)),
            group(6, 2, Some(3.0)),
        ),
        (
            Tool::LanguageSwitch,
            group(1, 0, None),
            group(6, 3, Some(3.0)),
        ),
    ];
    for (report, (tool, used, not_used)) in tools.iter().zip(expected) {
        assert_eq!(report.tool, tool);
        assert_eq!(report.used, used, "{tool} used");
        assert_eq!(report.not_used, not_used, "{tool} not used");
    }
    assert_eq!(tools[1].used.goal_rate(), Some(1.0));
    assert_eq!(tools[2].used.goal_rate(), None);
}

async fn the_coach(db: &TestDb) {
    loaded(db).await;
    let c = db.store.coach(&period()).await.expect("coach");
    // 11 comments: v1 4, v2 2, v3 3, v4 1, v7 1 (v6 and the ghost are out).
    assert_eq!(c.comments, 11);
    assert_eq!(c.offline, 2);
    assert!((c.offline_share() - 2.0 / 11.0).abs() < 1e-12);
    let named = |v: &[(&str, u64)]| -> Vec<(String, u64)> {
        v.iter().map(|&(s, n)| (s.to_string(), n)).collect()
    };
    assert_eq!(
        c.per_model,
        named(&[("llama", 4), ("offline", 2), ("qwen", 5)])
    );
    assert_eq!(
        c.rejections,
        named(&[("too long", 2), ("wrong language", 1)])
    );
    let l = |model: &str, lang, comments, p50_ms, p95_ms| Latency {
        model: model.into(),
        lang,
        comments,
        p50_ms,
        p95_ms,
    };
    // Nearest rank: of 2 values p50 is the first, p95 the second; of 3, p50
    // is the second and p95 the third.
    assert_eq!(
        c.latency,
        vec![
            l("llama", Lang::En, 2, 900, 1000),
            l("llama", Lang::Pt, 2, 600, 800),
            l("offline", Lang::En, 2, 5, 7),
            l("qwen", Lang::En, 3, 200, 300),
            l("qwen", Lang::Pt, 1, 400, 400),
            l("qwen", Lang::Zh, 1, 250, 250),
        ]
    );
    let zh = Filter {
        lang: Some(Lang::Zh),
        ..period()
    };
    assert_eq!(db.store.coach(&zh).await.expect("zh").comments, 1);
}

async fn a_room_now(db: &TestDb) {
    loaded(db).await;
    let s = &db.store;
    // A room's current visits, by id in the order given (the most recently
    // active first, as `rooms::Rooms::current` gives them); one never
    // stored is left out.
    let now = s
        .room_visitors(&[id("v3"), id("ghost"), id("v1"), id("v8")])
        .await
        .expect("room");
    let ids: Vec<_> = now.iter().map(|v| v.visit.clone()).collect();
    assert_eq!(ids, vec![id("v3"), id("v1"), id("v8")]);
    assert_eq!(now[0].attempts, 3);
    assert!(now[0].reached, "v3's 450 is at the goal");
    assert_eq!(
        now[0].latest,
        Some(Point {
            weight: 0.059,
            weight2: 0.0,
            bias: 240.0,
            error: 450.0
        })
    );
    assert_eq!(now[1].latest.map(|p| p.error), Some(447.5), "v1's latest");
    assert_eq!(
        (now[2].attempts, now[2].latest, now[2].reached),
        (0, None, false),
        "v8 is yet to try"
    );
    assert!(s.room_visitors(&[]).await.expect("none").is_empty());
}
