//! A small hand-made history whose every report number is worked out by hand
//! in `reports.rs`.
//!
//! Period: days D and D+1 (D = day 20,000; `T0` its first minute).
//!
//! | visit | lang | room     | start      | attempts (error @ minute)                     | tools |
//! |-------|------|----------|------------|-----------------------------------------------|-------|
//! | v1    | en   | class-7b | T0         | 799.09@0, 620@1, 449@3 (goal), 447.5@4        | map ×2, nudge |
//! | v2    | en   | –        | T0+10      | 900@10, 700@11                                | nudge |
//! | v3    | pt   | class-7b | T0+20      | 550@20, 480@21, 450@25 (goal: at, not below)   | descent_lab, map |
//! | v4    | zh   | –        | T0+1445    | 440@1445 (goal)                               | shared_link |
//! | v5    | en   | –        | T0+1470    | –                                             | language_switch |
//! | v7    | en   | –        | T0+30      | 560@30                                        | – |
//! | v8    | en   | class-8  | T0+26      | –                                             | – |
//! | v6    | en   | –        | T0−10 (before the period) | 300@−10                        | map |
//! | ghost | (no visit row)  |            | 100@5                                         | – |
//!
//! Comments (model, outcome, latency ms): v1: qwen served 100, qwen served
//! 300, offline 5, llama rejected "too long" 900; v2: qwen served 200, offline
//! 7; v3: qwen served 400, llama rejected "wrong language" 800, llama served
//! 600; v4: qwen served 250; v7: llama rejected "too long" 1000.

use crate::{
    Attempt, AttemptNumbers, AttemptOutcome, Device, Event, Layout, Minute, ModelName, Reason,
    RoomCode, Tool, ToolUse, Visit, VisitId,
};
use vocabulary::Lang;

/// The first minute of the period's first day.
pub const T0: i64 = 20_000 * Minute::PER_DAY;

pub fn id(name: &str) -> VisitId {
    VisitId::parse(&format!("{name}-aaaaaaaaaaaaaaaa")).expect("a test id")
}

pub fn visit(name: &str, lang: Lang, room: Option<&str>, start: i64) -> Event {
    Event::Visit(Visit {
        id: id(name),
        lesson: lesson::lessons::Which::One,
        lang,
        layout: if name == "v2" {
            Layout::Embed
        } else {
            Layout::Page
        },
        device: Device::Desktop,
        room: room.map(|r| RoomCode::parse(r).expect("a test room")),
        started: Minute(T0 + start),
    })
}

/// (number, error, weight, bias, model, outcome, latency, minute)
type A<'a> = (u32, f64, f64, f64, &'a str, &'a str, u64, i64);

pub fn attempt(name: &str, lang: Lang, (n, error, w, b, model, outcome, ms, at): A<'_>) -> Event {
    let outcome = match outcome {
        "served" => AttemptOutcome::Served,
        "offline" => AttemptOutcome::Offline,
        why => AttemptOutcome::Rejected(Reason::parse(why).expect("a test reason")),
    };
    Event::Attempt(Attempt {
        visit: id(name),
        numbers: AttemptNumbers::new(n, error, w, b, ms).expect("test numbers"),
        lang,
        model: ModelName::parse(model).expect("a test model"),
        outcome,
        at: Minute(T0 + at),
    })
}

pub fn tool(name: &str, tool: Tool, at: i64) -> Event {
    Event::Tool(ToolUse {
        visit: id(name),
        tool,
        at: Minute(T0 + at),
    })
}

/// Every event of the history, in an order a server could see them.
pub fn history() -> Vec<Event> {
    use Lang::*;
    let mut e = vec![
        visit("v1", En, Some("Class-7B"), 0),
        attempt("v1", En, (1, 799.09, 0.1, 150.0, "qwen", "served", 100, 0)),
        attempt("v1", En, (2, 620.0, 0.06, 150.0, "qwen", "served", 300, 1)),
        tool("v1", Tool::Map, 2),
        attempt(
            "v1",
            En,
            (3, 449.0, 0.058, 250.0, "offline", "offline", 5, 3),
        ),
        tool("v1", Tool::Map, 3),
        tool("v1", Tool::Nudge, 4),
        attempt(
            "v1",
            En,
            (4, 447.5, 0.0585, 247.0, "llama", "too long", 900, 4),
        ),
        visit("v2", En, None, 10),
        attempt("v2", En, (1, 900.0, 0.2, 100.0, "qwen", "served", 200, 10)),
        tool("v2", Tool::Nudge, 11),
        attempt(
            "v2",
            En,
            (2, 700.0, 0.15, 100.0, "offline", "offline", 7, 11),
        ),
        visit("v3", Pt, Some("class-7b"), 20),
        attempt("v3", Pt, (1, 550.0, 0.07, 200.0, "qwen", "served", 400, 20)),
        tool("v3", Tool::DescentLab, 20),
        attempt(
            "v3",
            Pt,
            (2, 480.0, 0.06, 230.0, "llama", "wrong language", 800, 21),
        ),
        tool("v3", Tool::Map, 22),
        attempt(
            "v3",
            Pt,
            (3, 450.0, 0.059, 240.0, "llama", "served", 600, 25),
        ),
        visit("v8", En, Some("class-8"), 26),
        visit("v7", En, None, 30),
        attempt(
            "v7",
            En,
            (1, 560.0, 0.05, 300.0, "llama", "too long", 1000, 30),
        ),
        visit("v4", Zh, None, 1445),
        tool("v4", Tool::SharedLink, 1445),
        attempt(
            "v4",
            Zh,
            (1, 440.0, 0.0584, 247.3, "qwen", "served", 250, 1445),
        ),
        visit("v5", En, None, 1470),
        tool("v5", Tool::LanguageSwitch, 1471),
        // Outside the period, and an attempt whose visit was never recorded.
        visit("v6", En, None, -10),
        attempt(
            "v6",
            En,
            (1, 300.0, 0.058, 247.0, "qwen", "served", 50, -10),
        ),
        tool("v6", Tool::Map, -10),
        attempt(
            "ghost",
            En,
            (1, 100.0, 0.058, 247.0, "qwen", "served", 50, 5),
        ),
    ];
    // A repeated visit and attempt (a retried request) change nothing.
    e.push(visit("v2", Zh, Some("elsewhere"), 99));
    e.push(attempt(
        "v2",
        En,
        (2, 1.0, 0.0, 0.0, "qwen", "served", 1, 99),
    ));
    e
}

/// The period: days D and D+1.
pub fn period() -> crate::Filter {
    crate::Filter::period(Minute(T0), Minute(T0 + 2 * Minute::PER_DAY))
}
