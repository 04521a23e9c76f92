//! Synthetic visits for the insights benches: deterministic (one seeded
//! `StdRng`, the same numbers for as long as `Cargo.lock` pins `rand`), with a
//! spread a real site could have.
//!
//! - Visits over `days` days ending at `end`, fewer at weekends, most in the
//!   (UTC) afternoon, in time order; 55 % en, 30 % pt, 15 % zh; 30 % embedded;
//!   phones, tablets and desktops. 6 % in a class room (300 rooms, a few
//!   much busier than the rest: [`ROOM`] is the busiest).
//! - Attempts: 22 % of visits make none; the rest make 1–30 (about 8 on
//!   average), walking from the page's start (w 0.1, b 150, error 799.09)
//!   towards a target, so their errors fall; about 30 % of all visits reach
//!   the goal (their target is the optimum, error 447.29), some going on a few
//!   attempts after it. Their minutes follow one another by 0–3 minutes.
//! - Each attempt's comment: 10 % offline (0–15 ms), 7 % rejected with a
//!   reason, the rest served by one of three models (log-normal latencies,
//!   medians 600–1,100 ms); 3 % in another language than the visit's.
//! - Tools: each with its own chance (more for visits that attempt), used
//!   1–5 times.

// Each bench uses part of this module.
#![allow(dead_code)]

use insights::{
    Attempt, AttemptNumbers, AttemptOutcome, Device, Event, Layout, Minute, ModelName, Reason,
    RoomCode, Tool, ToolUse, Visit, VisitId,
};
use lesson::neuron::{optimum, Params, START};
use rand::{rngs::StdRng, Rng, SeedableRng};
use rand_distr::{Distribution, LogNormal};
use vocabulary::Lang;

/// The busiest room: the one the room filter benchmarks.
pub const ROOM: &str = "class-0";
const ROOMS: usize = 300;

/// One visit, its attempts and its tools (each with its first minute and uses).
pub struct Planned {
    pub visit: Visit,
    pub attempts: Vec<Attempt>,
    pub tools: Vec<(Tool, Minute, u32)>,
}

impl Planned {
    /// As the server would see it: the visit, then its attempts and tool
    /// uses by minute (a tool used `n` times is `n` events).
    pub fn events(&self) -> Vec<Event> {
        let mut timed: Vec<(Minute, Event)> =
            vec![(self.visit.started, Event::Visit(self.visit.clone()))];
        timed.extend(
            self.attempts
                .iter()
                .map(|a| (a.at, Event::Attempt(a.clone()))),
        );
        for &(tool, at, uses) in &self.tools {
            for k in 0..uses {
                let at = Minute(at.0 + i64::from(k));
                let event = Event::Tool(ToolUse {
                    visit: self.visit.id.clone(),
                    tool,
                    at,
                });
                timed.push((at, event));
            }
        }
        // Stable: the visit first, then attempts and tools of one minute.
        timed.sort_by_key(|(at, _)| *at);
        timed.into_iter().map(|(_, e)| e).collect()
    }
}

/// Visits, `per_day` on average over `days` days ending at `end`, in time order.
pub struct Synth {
    rng: StdRng,
    end: Minute,
    days: u32,
    per_day: f64,
    day: u32,
    pending: std::vec::IntoIter<Minute>,
    models: [(ModelName, LogNormal<f64>); 3],
    reasons: Vec<Reason>,
    rooms: Vec<RoomCode>,
}

impl Synth {
    pub fn new(seed: u64, visits: u64, days: u32, end: Minute) -> Self {
        let model = |name: &str, median_ms: f64| {
            (
                ModelName::parse(name).expect("a model name"),
                LogNormal::new(median_ms.ln(), 0.5).expect("a log-normal"),
            )
        };
        Self {
            rng: StdRng::seed_from_u64(seed),
            end,
            days,
            per_day: visits as f64 / f64::from(days),
            day: 0,
            pending: Vec::new().into_iter(),
            models: [
                model("qwen-2.5-1.5b", 600.0),
                model("llama-3.2-1b", 800.0),
                model("gemma-2-2b", 1100.0),
            ],
            reasons: [
                "too long",
                "wrong language",
                "limited: client",
                "contradicts the facts",
            ]
            .iter()
            .map(|r| Reason::parse(r).expect("a reason"))
            .collect(),
            rooms: (0..ROOMS)
                .map(|k| RoomCode::parse(&format!("class-{k}")).expect("a room"))
                .collect(),
        }
    }

    /// The next day's visit minutes, sorted; false after the last day.
    fn next_day(&mut self) -> bool {
        if self.day >= self.days {
            return false;
        }
        let first = self.end.0 - i64::from(self.days - self.day) * Minute::PER_DAY;
        self.day += 1;
        // Day 0 of the epoch was a Thursday: days 2 and 3 (mod 7) are weekends.
        let weekday = (first / Minute::PER_DAY).rem_euclid(7);
        let weight = if matches!(weekday, 2 | 3) { 0.6 } else { 1.16 };
        // Exactly the average over a whole week (5 × 1.16 + 2 × 0.6 = 7).
        let n = (self.per_day * weight).round() as usize;
        let mut minutes: Vec<Minute> = (0..n)
            .map(|_| {
                // Afternoon UTC, spread: the sum of three uniforms around 15:00.
                let hours: f64 = (0..3).map(|_| self.rng.random_range(-4.0..4.0)).sum();
                let minute = ((15.0 + hours) * 60.0) as i64;
                Minute(first + minute.rem_euclid(Minute::PER_DAY))
            })
            .collect();
        minutes.sort();
        self.pending = minutes.into_iter();
        true
    }

    fn id(&mut self) -> VisitId {
        const ALPHABET: &[u8; 64] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let id: String = (0..22)
            .map(|_| char::from(ALPHABET[self.rng.random_range(0..64)]))
            .collect();
        VisitId::parse(&id).expect("22 base64url characters")
    }

    fn pick<T: Copy>(&mut self, weighted: &[(T, f64)]) -> T {
        let mut x = self.rng.random::<f64>() * weighted.iter().map(|(_, w)| w).sum::<f64>();
        for &(value, w) in weighted {
            if x < w {
                return value;
            }
            x -= w;
        }
        weighted[weighted.len() - 1].0
    }

    fn room(&mut self) -> Option<RoomCode> {
        if !self.rng.random_bool(0.06) {
            return None;
        }
        // Zipf-like: room k with weight 1 / (k + 1).
        let total: f64 = (1..=ROOMS).map(|k| 1.0 / k as f64).sum();
        let mut x = self.rng.random::<f64>() * total;
        for (k, room) in self.rooms.iter().enumerate() {
            x -= 1.0 / (k + 1) as f64;
            if x < 0.0 {
                return Some(room.clone());
            }
        }
        self.rooms.last().cloned()
    }

    fn plan(&mut self, started: Minute) -> Planned {
        let id = self.id();
        let lang = self.pick(&[(Lang::En, 0.55), (Lang::Pt, 0.30), (Lang::Zh, 0.15)]);
        let visit = Visit {
            id: id.clone(),
            lesson: lesson::lessons::Which::One,
            lang,
            layout: self.pick(&[(Layout::Page, 0.7), (Layout::Embed, 0.3)]),
            device: self.pick(&[
                (Device::Phone, 0.45),
                (Device::Tablet, 0.1),
                (Device::Desktop, 0.45),
            ]),
            room: self.room(),
            started,
        };

        // How many attempts, and whether (and when) the goal is reached.
        let attempts: u32 = if self.rng.random_bool(0.22) {
            0
        } else {
            let x: f64 = self.rng.random();
            (1.0 + (-7.5 * (1.0 - x).ln())).min(30.0) as u32
        };
        // 30 % of all visits reach the goal: 38 % of those that attempt, more
        // of those that try longer.
        let reach_at = (attempts >= 2
            && self
                .rng
                .random_bool((0.2 + f64::from(attempts) * 0.03).min(0.7)))
        .then(|| {
            let after = self.rng.random_range(0..=attempts.min(8) / 4);
            attempts - after
        });
        let best = optimum();
        let target = match reach_at {
            Some(_) => best,
            None => loop {
                let p = Params::new(
                    best.weight + self.rng.random_range(-0.004..0.004),
                    best.bias + self.rng.random_range(-14.0..14.0),
                );
                if p.error() > 452.0 {
                    break p;
                }
            },
        };
        let steps = reach_at.unwrap_or(attempts).max(1);
        let mut at = started;
        let mut list = Vec::with_capacity(attempts as usize);
        for n in 1..=attempts {
            let t = (f64::from(n) / f64::from(steps)).min(1.0);
            let shake = if t < 1.0 { 1.0 - t } else { 0.0 };
            let p = Params::new(
                START.weight
                    + (target.weight - START.weight) * t
                    + self.rng.random_range(-0.01..0.01) * shake,
                START.bias
                    + (target.bias - START.bias) * t
                    + self.rng.random_range(-20.0..20.0) * shake,
            );
            let lang = if self.rng.random_bool(0.03) {
                self.pick(&[(Lang::En, 1.0), (Lang::Pt, 1.0), (Lang::Zh, 1.0)])
            } else {
                lang
            };
            let (model, outcome, latency) = self.comment();
            list.push(Attempt {
                visit: id.clone(),
                numbers: AttemptNumbers::new(n, p.error(), p.weight, p.bias, latency)
                    .expect("numbers in range"),
                lang,
                model,
                outcome,
                at,
            });
            at = Minute(at.0 + self.pick(&[(0, 0.45), (1, 0.35), (2, 0.12), (3, 0.08)]));
        }

        let boost = if attempts > 0 { 1.0 } else { 0.3 };
        let mut tools = Vec::new();
        for (tool, chance) in [
            (Tool::Nudge, 0.35),
            (Tool::Map, 0.25),
            (Tool::BestResponse, 0.15),
            (Tool::DescentLab, 0.10),
            (Tool::TypedValue, 0.10),
            (Tool::LanguageSwitch, 0.04),
            (Tool::SharedLink, 0.03),
        ] {
            if self.rng.random_bool(chance * boost) {
                let first =
                    Minute(started.0 + self.rng.random_range(0..=i64::from(attempts.min(10))));
                tools.push((tool, first, self.rng.random_range(1..=5)));
            }
        }
        Planned {
            visit,
            attempts: list,
            tools,
        }
    }

    /// A comment's model, outcome and latency.
    fn comment(&mut self) -> (ModelName, AttemptOutcome, u64) {
        let x: f64 = self.rng.random();
        if x < 0.10 {
            let ms = self.rng.random_range(0..=15);
            return (
                ModelName::parse("offline").expect("offline"),
                AttemptOutcome::Offline,
                ms,
            );
        }
        let m = self.pick(&[(0, 0.5), (1, 0.3), (2, 0.2)]);
        let ms =
            (self.models[m].1.sample(&mut self.rng) as u64).min(AttemptNumbers::MAX_LATENCY_MS);
        let model = self.models[m].0.clone();
        if x < 0.17 {
            let why = self.reasons[self.rng.random_range(0..self.reasons.len())].clone();
            (model, AttemptOutcome::Rejected(why), ms)
        } else {
            (model, AttemptOutcome::Served, ms)
        }
    }
}

impl Iterator for Synth {
    type Item = Planned;

    fn next(&mut self) -> Option<Planned> {
        loop {
            if let Some(started) = self.pending.next() {
                return Some(self.plan(started));
            }
            if !self.next_day() {
                return None;
            }
        }
    }
}
