//! Histories for `/insights`, written straight into a store: a small one
//! whose every number the tests know ([`small`]), and a larger made-up one
//! for looking at the page ([`rich`]; `seed_a_data_dir_for_screenshots`
//! writes it into `$JAY_SEED_DIR/insights.db`).

use insights::{
    sink::Sink, Attempt, AttemptNumbers, AttemptOutcome, Device, Event, InsightsConfig, Layout,
    Minute, ModelName, Reason, RoomCode, Store, Tool, ToolUse, Visit, VisitId,
};
use lesson::neuron::{optimum, Params, START};
use vocabulary::Lang;

pub fn id(name: &str) -> VisitId {
    VisitId::parse(&format!("{name}-seedseedseedseed")).expect("an id")
}

pub fn visit(name: &str, lang: Lang, room: Option<&str>, start: Minute) -> Event {
    Event::Visit(Visit {
        id: id(name),
        lesson: lesson::lessons::Which::One,
        lang,
        layout: Layout::Page,
        device: Device::Desktop,
        room: room.map(|r| RoomCode::parse(r).expect("a room")),
        started: start,
    })
}

/// An attempt: number, error, weight, bias, model, outcome (`served`,
/// `offline` or a refusal's reason), latency, minute.
#[allow(clippy::too_many_arguments)]
pub fn attempt(
    name: &str,
    lang: Lang,
    n: u32,
    p: Params,
    model: &str,
    outcome: &str,
    ms: u64,
    at: Minute,
) -> Event {
    let outcome = match outcome {
        "served" => AttemptOutcome::Served,
        "offline" => AttemptOutcome::Offline,
        why => AttemptOutcome::Rejected(Reason::parse(why).expect("a reason")),
    };
    Event::Attempt(Attempt {
        visit: id(name),
        numbers: AttemptNumbers::new(n, p.error(), p.weight, p.bias, ms).expect("numbers"),
        lang,
        model: ModelName::parse(model).expect("a model"),
        outcome,
        at,
    })
}

pub fn tool(name: &str, tool: Tool, at: Minute) -> Event {
    Event::Tool(ToolUse {
        visit: id(name),
        tool,
        at,
    })
}

/// A point whose error is about `error` on the line from the start to the
/// best fit (to find one with a chosen error).
pub fn point_with_error(error: f64) -> Params {
    let (a, b) = (START, optimum());
    let at = |t: f64| {
        Params::new(
            a.weight + t * (b.weight - a.weight),
            a.bias + t * (b.bias - a.bias),
        )
    };
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if at(mid).error() > error {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    at(hi)
}

/// Five visits, three days to nearly one day before `now`:
///
/// | visit | lang | room     | attempts (error)           | tools        |
/// |-------|------|----------|----------------------------|--------------|
/// | v1    | en   | class-7b | 900, 700, 480, 449 (goal)  | map, nudge   |
/// | v2    | pt   | –        | 820, 610                   | nudge        |
/// | v3    | zh   | class-7b | 449.5 (goal)               | descent_lab  |
/// | v4    | en   | –        | –                          | –            |
/// | v5    | en   | –        | 1200 (model `-sum-a1`)     | –            |
///
/// Funnel: 5 visits, 4 attempted, 3 at or below 799, 2 at 600, 500 and the goal.
pub fn small(now: Minute) -> Vec<Event> {
    use Lang::*;
    let day = Minute::PER_DAY;
    // Ten minutes inside the last 24 hours, so that a minute passing
    // before the page is asked for changes nothing.
    let (t1, t2, t3) = (
        Minute(now.0 - 3 * day),
        Minute(now.0 - 2 * day),
        Minute(now.0 - day + 10),
    );
    let at = |t: Minute, m: i64| Minute(t.0 + m);
    let e = point_with_error;
    vec![
        visit("v1", En, Some("Class-7B"), t1),
        attempt("v1", En, 1, e(900.0), "qwen", "served", 300, at(t1, 0)),
        attempt("v1", En, 2, e(700.0), "offline", "offline", 5, at(t1, 1)),
        attempt("v1", En, 3, e(480.0), "llama", "too long", 900, at(t1, 2)),
        attempt("v1", En, 4, e(449.0), "qwen", "served", 500, at(t1, 4)),
        tool("v1", Tool::Map, at(t1, 1)),
        tool("v1", Tool::Nudge, at(t1, 2)),
        visit("v2", Pt, None, t2),
        attempt("v2", Pt, 1, e(820.0), "qwen", "served", 200, at(t2, 0)),
        attempt("v2", Pt, 2, e(610.0), "qwen", "served", 400, at(t2, 3)),
        tool("v2", Tool::Nudge, at(t2, 1)),
        visit("v3", Zh, Some("class-7b"), t3),
        attempt("v3", Zh, 1, e(449.5), "llama", "served", 800, at(t3, 2)),
        tool("v3", Tool::DescentLab, at(t3, 1)),
        visit("v4", En, None, at(t3, 30)),
        visit("v5", En, None, at(t3, 40)),
        attempt(
            "v5",
            En,
            1,
            e(1200.0),
            "-sum-a1",
            "-1 too long",
            2000,
            at(t3, 41),
        ),
    ]
}

/// A small deterministic random source (no dependency for made-up data).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// About 160 made-up visits over the 12 days before `now`, in three
/// languages and two rooms, walking from Jay's start towards the best fit
/// with less and less noise: about half reach the goal.
pub fn rich(now: Minute) -> Vec<Event> {
    let mut r = Lcg(23);
    let mut events = Vec::new();
    let best = optimum();
    for i in 0..160 {
        let name = format!("r{i:03}");
        let lang = [Lang::En, Lang::En, Lang::Pt, Lang::Zh][i % 4];
        let room = match i % 5 {
            0 => Some("class-7b"),
            1 => Some("physics-2"),
            _ => None,
        };
        let start = Minute(now.0 - (12.0 * r.next() * Minute::PER_DAY as f64) as i64 - 5);
        events.push(visit(&name, lang, room, start));
        let skill = r.next();
        let tries = if r.next() < 0.12 {
            0
        } else {
            1 + (r.next() * 30.0) as u32
        };
        let mut p = START;
        let mut minute = start.0;
        for n in 1..=tries {
            // Closer and steadier with each attempt.
            let (pull, steady) = (0.1 + 0.5 * skill, 0.85_f64.powi(n as i32));
            p = Params::new(
                (p.weight + pull * (best.weight - p.weight) + (r.next() - 0.5) * 0.02 * steady)
                    .clamp(0.0, 0.4),
                (p.bias + pull * (best.bias - p.bias) + (r.next() - 0.5) * 40.0 * steady)
                    .clamp(0.0, 460.0),
            );
            minute += (r.next() * 2.0) as i64;
            let (model, outcome, ms) = match (r.next() * 10.0) as u32 {
                0 => ("offline", "offline", 4),
                1 => (
                    "llama-3.2-1b",
                    "wrong language",
                    700 + (r.next() * 900.0) as u64,
                ),
                2 => ("qwen2.5-0.5b", "too long", 300 + (r.next() * 600.0) as u64),
                3..=5 => ("llama-3.2-1b", "served", 600 + (r.next() * 1500.0) as u64),
                _ => ("qwen2.5-0.5b", "served", 250 + (r.next() * 700.0) as u64),
            };
            events.push(attempt(
                &name,
                lang,
                n,
                p,
                model,
                outcome,
                ms,
                Minute(minute),
            ));
            if p.error() <= 450.0 {
                break;
            }
        }
        for (k, t) in Tool::ALL.iter().enumerate() {
            if r.next() < [0.3, 0.5, 0.35, 0.6, 0.25, 0.1, 0.08][k] {
                events.push(tool(&name, *t, Minute(start.0 + 1)));
            }
        }
    }
    events
}

/// Writes [`rich`] into `$JAY_SEED_DIR/insights.db` (for screenshots):
/// `JAY_SEED_DIR=… cargo test --features ssr --test api seed_a_data_dir -- --ignored`.
#[tokio::test]
#[ignore = "writes a data folder for screenshots"]
async fn seed_a_data_dir_for_screenshots() {
    let dir = std::env::var("JAY_SEED_DIR").expect("JAY_SEED_DIR");
    let dir = std::path::Path::new(&dir);
    let config = InsightsConfig::from_vars(|_| None, dir).expect("config");
    let store = Store::connect(&config.database).await.expect("store");
    store.write(&rich(Minute::now())).await.expect("written");
    store.close().await;
}
