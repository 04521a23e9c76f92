//! What the router simulation measures and the table it prints.
//!
//! [`Outcome`] is one run's raw figures; the runs of one scenario and strategy
//! merge into one [`Row`] of the table. `targets` checks the default strategy
//! (`thompson`) against the targets listed in `docs/benchmarks/router.md`,
//! and [`block`] renders everything (with `languages`' table of scenario 8
//! and `voting`'s of scenario 9)
//! as the Markdown block that file shows between its `router_sim` markers
//! ([`write_docs`] puts it there).

use std::{fmt::Write as _, path::Path};

use super::{languages, targets::Target, voting, Scenario};

/// The strategy whose targets are checked: the registry's default.
pub const DEFAULT: &str = "thompson";

/// Time windows (seconds since the start) over which the always-rejected
/// model's share of first picks is shown.
const WINDOWS: [(f64, f64); 5] = [
    (0.0, 15.0),
    (15.0, 30.0),
    (30.0, 45.0),
    (45.0, 60.0),
    (60.0, f64::INFINITY),
];

/// The markers around the generated block in `docs/benchmarks/router.md`.
const BEGIN: &str = "<!-- router_sim:begin (generated: cargo bench --features ssr --bench router_sim -- --write-docs) -->";
const END: &str = "<!-- router_sim:end -->";

/// One run's figures (or several runs', merged).
#[derive(Default)]
pub struct Outcome {
    pub requests: usize,
    pub successes: usize,
    pub fallbacks: usize,
    /// Requests that arrived while at least one model was healthy, and how
    /// many of those a model answered.
    pub healthy_requests: usize,
    pub healthy_successes: usize,
    pub latencies: Vec<u64>,
    pub calls: usize,
    /// Calls that did not give the comment served: rejected or failed.
    pub wasted: usize,
    /// Models' comments served that did not help their reader (scenario 9).
    pub unhelpful: usize,
    /// Comments written by model `a`.
    pub by_a: usize,
    /// Seconds until the recovered model had its share back, per run (`None`:
    /// never); empty when nothing recovers in the scenario.
    pub recoveries: Vec<Option<f64>>,
    /// Per [`WINDOWS`] entry: (first picks of the always-rejected model, all
    /// first picks); empty when the scenario has no such model.
    pub rejected_picks: Vec<(usize, usize)>,
}

impl Outcome {
    /// Adds another run's figures.
    pub fn merge(&mut self, other: Outcome) {
        self.requests += other.requests;
        self.successes += other.successes;
        self.fallbacks += other.fallbacks;
        self.healthy_requests += other.healthy_requests;
        self.healthy_successes += other.healthy_successes;
        self.latencies.extend(other.latencies);
        self.calls += other.calls;
        self.wasted += other.wasted;
        self.unhelpful += other.unhelpful;
        self.by_a += other.by_a;
        self.recoveries.extend(other.recoveries);
        if self.rejected_picks.is_empty() {
            self.rejected_picks = other.rejected_picks;
        } else {
            for (mine, theirs) in self.rejected_picks.iter_mut().zip(other.rejected_picks) {
                *mine = (mine.0 + theirs.0, mine.1 + theirs.1);
            }
        }
    }
}

/// Seconds after `back` until `alias` is first tried in ≥ 80 % of its steady
/// share (measured over 0–1000 s) over a trailing 30 s window.
pub fn recovery_time(firsts: &[(f64, String)], alias: &str, back: f64) -> Option<f64> {
    let steady = share(firsts, alias, 0.0, 1000.0).0;
    let mut end = back + 30.0;
    while end <= back + 1000.0 {
        if share(firsts, alias, end - 30.0, end).0 >= 0.8 * steady {
            return Some(end - back);
        }
        end += 5.0;
    }
    None
}

/// (first picks of `alias`, all first picks) in each of [`WINDOWS`].
pub fn picks_by_window(firsts: &[(f64, String)], alias: &str) -> Vec<(usize, usize)> {
    WINDOWS
        .iter()
        .map(|(from, to)| {
            let (_, hits, all) = share(firsts, alias, *from, *to);
            (hits, all)
        })
        .collect()
}

/// `alias`'s share of the first picks made in `[from, to)`, with the counts.
fn share(firsts: &[(f64, String)], alias: &str, from: f64, to: f64) -> (f64, usize, usize) {
    let window: Vec<_> = firsts
        .iter()
        .filter(|(t, _)| (from..to).contains(t))
        .collect();
    let hits = window.iter().filter(|(_, m)| m == alias).count();
    (hits as f64 / window.len().max(1) as f64, hits, window.len())
}

/// One line of the table: a scenario and strategy over all runs.
pub struct Row {
    pub scenario: Scenario,
    pub strategy: &'static str,
    pub requests: usize,
    /// Requests that got a model's answer.
    pub successes: usize,
    /// Shares of requests, in [0, 1].
    pub success: f64,
    pub healthy_success: f64,
    pub fallback: f64,
    pub p50: u64,
    pub p95: u64,
    pub p99: u64,
    pub calls_per_request: f64,
    /// Rejected or failed calls per request.
    pub wasted_per_request: f64,
    /// Served comments that did not help, per request.
    pub unhelpful_per_request: f64,
    /// Model `a`'s share of the comments served.
    pub a_share: f64,
    /// Recovery seconds per run, sorted; `INFINITY` for a run that never did.
    pub recoveries: Vec<f64>,
    /// The always-rejected model's share of first picks per [`WINDOWS`] entry.
    pub rejected_shares: Vec<f64>,
}

impl Row {
    pub fn new(scenario: Scenario, strategy: &'static str, mut out: Outcome) -> Self {
        out.latencies.sort_unstable();
        let requests = out.requests.max(1) as f64;
        let mut recoveries: Vec<f64> = out
            .recoveries
            .iter()
            .map(|r| r.unwrap_or(f64::INFINITY))
            .collect();
        recoveries.sort_by(f64::total_cmp);
        Self {
            scenario,
            strategy,
            requests: out.requests,
            successes: out.successes,
            success: out.successes as f64 / requests,
            healthy_success: out.healthy_successes as f64 / out.healthy_requests.max(1) as f64,
            fallback: out.fallbacks as f64 / requests,
            p50: percentile(&out.latencies, 0.50),
            p95: percentile(&out.latencies, 0.95),
            p99: percentile(&out.latencies, 0.99),
            calls_per_request: out.calls as f64 / requests,
            wasted_per_request: out.wasted as f64 / requests,
            unhelpful_per_request: out.unhelpful as f64 / requests,
            a_share: out.by_a as f64 / out.successes.max(1) as f64,
            recoveries,
            rejected_shares: out
                .rejected_picks
                .iter()
                .map(|(hits, all)| *hits as f64 / (*all).max(1) as f64)
                .collect(),
        }
    }

    /// Median and worst recovery over the runs, when the scenario has one.
    pub fn recovery(&self) -> Option<(f64, f64)> {
        Some((
            *self.recoveries.get(self.recoveries.len() / 2)?,
            *self.recoveries.last()?,
        ))
    }
}

fn percentile(sorted: &[u64], q: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

pub fn seconds(s: f64) -> String {
    if s.is_finite() {
        format!("{s:.0}")
    } else {
        "never".into()
    }
}

pub fn percent(share: f64) -> String {
    format!("{:.2} %", 100.0 * share)
}

/// The Markdown block `docs/benchmarks/router.md` shows: the table, the always-rejected
/// model's share over time, and the targets.
pub fn block(
    rows: &[Row],
    language_rows: &[Row],
    voting_rows: &[Row],
    targets: &[Target],
) -> String {
    let mut out = String::new();
    out.push_str(
        "| scenario | strategy | success | success, ≥ 1 model healthy | fallback | p50 ms | p95 ms | p99 ms | calls/req | recovery s, median (worst) |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let recovery = r.recovery().map_or_else(
            || "–".into(),
            |(m, w)| format!("{} ({})", seconds(m), seconds(w)),
        );
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.2} | {} |",
            r.scenario.name(),
            r.strategy,
            percent(r.success),
            percent(r.healthy_success),
            percent(r.fallback),
            r.p50,
            r.p95,
            r.p99,
            r.calls_per_request,
            recovery,
        );
    }
    let rejected: Vec<&Row> = rows
        .iter()
        .filter(|r| !r.rejected_shares.is_empty())
        .collect();
    if !rejected.is_empty() {
        out.push_str(
            "\nScenario 7: the always-rejected model's share of first picks, by time since the start:\n\n",
        );
        out.push_str("| strategy |");
        for (from, to) in WINDOWS {
            let _ = if to.is_finite() {
                write!(out, " {from:.0}–{to:.0} s |")
            } else {
                write!(out, " after {from:.0} s |")
            };
        }
        out.push_str("\n|---|");
        out.push_str(&"---:|".repeat(WINDOWS.len()));
        out.push('\n');
        for r in rejected {
            let _ = write!(out, "| {} |", r.strategy);
            for share in &r.rejected_shares {
                let _ = write!(out, " {} |", percent(*share));
            }
            out.push('\n');
        }
    }
    out.push_str(&languages::block(language_rows));
    out.push_str(&voting::block(voting_rows));
    let _ = write!(
        out,
        "\nThe default strategy (`{DEFAULT}`) against its targets:\n\n\
         | target | closest call (or worst miss) | met |\n|---|---|---|\n"
    );
    for t in targets {
        let met = if t.misses.is_empty() { "yes" } else { "**no**" };
        let _ = writeln!(out, "| {} | {} | {met} |", t.name, t.worst);
    }
    out
}

/// Replaces the block between the doc's markers with `block`.
pub fn write_docs(path: &Path, block: &str) -> Result<(), String> {
    let doc = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (Some(begin), Some(end)) = (doc.find(BEGIN), doc.find(END)) else {
        return Err(format!("{}: no {BEGIN} … {END} markers", path.display()));
    };
    if end < begin {
        return Err(format!("{}: markers out of order", path.display()));
    }
    let updated = format!("{}{BEGIN}\n{block}{}", &doc[..begin], &doc[end..]);
    std::fs::write(path, updated).map_err(|e| format!("{}: {e}", path.display()))
}
