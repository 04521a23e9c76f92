//! How fast `/insights` answers over a million visits (under 300 ms
//! p50 on SQLite): the six report queries the page makes, each alone and as
//! one page (the six at once, as `/insights` runs them), for the filters the
//! page's form makes (`Choice::filter`): the default period (the last 30
//! days), with a language, with a room; then 7 and 90 days and the last 24
//! hours.
//!
//! "Before": the same store with [`Store::use_rollups`] off, every query over
//! the stored rows as before migration 0002 (3 pages; a page's figure is the
//! sum of its queries one after another: at once they wait past the pool's
//! 5 s for a connection and the page fails). "After": from the rollups (15
//! pages). The reports of both must be equal, or the run fails.
//!
//! The database: 1,000,000 visits over 90 days (`insights/synth.rs`: about
//! 6.1 million attempts and 1 million tool rows) written by
//! `insights/load.rs` with the schema of the first migration, once, from a
//! seeded generator, into `target/insights-bench/` (`JAY_BENCH_DIR`); then a
//! copy migrated by the store (the rollups built from the rows), kept until
//! the migrations change. Both steps say how long they took; a second run
//! starts at once.
//!
//! SQLite runs with the server's memory settings (`server::memory::tune`)
//! and the store's own connection settings: the reports read through the
//! store's pool of reading connections, as `/insights` does.
//!
//! A benchmark, not a test: the target is printed beside each page
//! figure with "met: yes/no"; nothing fails on timing. Exits 2 when a
//! measurement could not be made.
//!
//! Run: `cargo bench --features ssr --bench insights_report` (see
//! docs/benchmarks/insights.md). `JAY_BENCH_VISITS=100000` for a smaller
//! database, `JAY_BENCH_SAMPLES` (15) and `JAY_BENCH_BEFORE_SAMPLES` (3, 0 to
//! skip) for more or fewer pages.

#[path = "insights/load.rs"]
mod load;
#[path = "insights/run.rs"]
mod run;
#[path = "insights/synth.rs"]
mod synth;

use run::{env_number, Failure};
use std::{
    future::Future,
    path::PathBuf,
    time::{Duration, Instant},
};

use insights::report::overview::{Data, CAP};
use insights::{
    report::{
        coach::CoachReport,
        effort::{Effort, Points},
        funnel::{Day, Funnel},
        tools::ToolReport,
    },
    Filter, Minute, Store,
};
use jay_trainer::server::insights_pages::filter::Choice;
use sqlx::Connection;

/// The synthetic data's version: bump it when `synth.rs` or `load.rs` changes
/// what they write (the cached file is then made again).
const GENERATION: u32 = 1;
const SEED: u64 = 23;
const DAYS: u32 = 90;
/// The data's last minute (exclusive): 2026-01-01 00:00 UTC.
const END: Minute = Minute(20_454 * Minute::PER_DAY);
/// `/insights` answers in under 300 ms at the median.
const TARGET_P50: Duration = Duration::from_millis(300);
const QUERIES: [&str; 6] = ["funnel", "per_day", "effort", "points", "tools", "coach"];

fn main() {
    run::main("insights_report", run());
}

async fn run() -> Result<(), Failure> {
    // SQLite's memory as the server sets it (through mimalloc, no count).
    jay_trainer::server::memory::tune();
    let visits = env_number("JAY_BENCH_VISITS", 1_000_000);
    let samples = env_number("JAY_BENCH_SAMPLES", 15).max(1) as usize;
    let before_samples = env_number("JAY_BENCH_BEFORE_SAMPLES", 3) as usize;
    let dir = PathBuf::from(
        std::env::var("JAY_BENCH_DIR").unwrap_or_else(|_| "target/insights-bench".into()),
    );
    std::fs::create_dir_all(&dir)?;
    let base = dir.join(format!("visits-{visits}-g{GENERATION}.db"));
    let synth = synth::Synth::new(SEED, visits, DAYS, END);
    load::ensure_generated(&base, visits, synth).await?;
    let migrated = dir.join(format!(
        "visits-{visits}-g{GENERATION}-m{:016x}.db",
        load::migrations_hash()?
    ));
    let store = load::ensure_migrated(&base, &migrated).await?;
    let mut conn = sqlx::AnyConnection::connect(&load::sqlite_url(&migrated)).await?;
    let (attempts,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM insights_attempts")
        .fetch_one(&mut conn)
        .await?;
    conn.close().await?;
    eprintln!(
        "\n/insights' queries over {visits} visits and {attempts} attempts (SQLite), {samples} pages per \
         filter ({before_samples} before); p50 and p95 in ms. \"before\": every query over the stored \
         rows (as before the rollups); \"after\": from the rollups. \"page\": the six at once, as \
         /insights runs them (before: their sum, one after another: at once, they wait past the pool's \
         5 s for a connection and the page fails); the queries alone, one after another."
    );
    eprintln!(
        "{:<14} {:<8} {:>10} {:>10} {:>10} {:>10}",
        "filter", "query", "before p50", "p95", "after p50", "p95"
    );
    for (i, (name, filter)) in filters()?.into_iter().enumerate() {
        // The brief's three filters are measured both ways; the others after only.
        let before = if i < 3 && before_samples > 0 {
            store.use_rollups(false);
            Some(measure(&store, &filter, before_samples, false).await?)
        } else {
            None
        };
        store.use_rollups(true);
        let after = measure(&store, &filter, samples, true).await?;
        if let Some(before) = &before {
            if before.reports != after.reports {
                return Err(format!("{name}: the rollups' reports differ from the rows'").into());
            }
        }
        for (q, query) in QUERIES.iter().chain(["page"].iter()).enumerate() {
            let cell = |m: Option<&Measured>, p: f64| {
                m.map_or("–".to_string(), |m| {
                    format!("{:.1}", ms(quantile(&m.times[q], p)))
                })
            };
            let met = if *query == "page" {
                let p50 = quantile(&after.times[q], 0.5);
                format!(
                    "  (target p50 < {} ms, met: {})",
                    TARGET_P50.as_millis(),
                    if p50 < TARGET_P50 { "yes" } else { "no" }
                )
            } else {
                String::new()
            };
            eprintln!(
                "{:<14} {:<8} {:>10} {:>10} {:>10} {:>10}{met}",
                if q == 0 { name } else { "" },
                query,
                cell(before.as_ref(), 0.5),
                cell(before.as_ref(), 0.95),
                cell(Some(&after), 0.5),
                cell(Some(&after), 0.95)
            );
            let key = name.replace(',', "").replace(' ', "_");
            if let Some(b) = &before {
                println!(
                    "insights_{key}_{query}_before_p50_ms {:.1}",
                    ms(quantile(&b.times[q], 0.5))
                );
            }
            println!(
                "insights_{key}_{query}_after_p50_ms {:.1}",
                ms(quantile(&after.times[q], 0.5))
            );
        }
    }
    store.close().await;
    Ok(())
}

/// The filters a page is measured with, made as `/insights` makes them from
/// its form (`Choice::filter`): the default period (the last 30 days), with a
/// language, with a room; then 7 and 90 days, and the last 24 hours.
fn filters() -> Result<Vec<(&'static str, Filter)>, Failure> {
    let now = Minute(END.0 - 1);
    let form = |pairs: &[(&str, &str)]| -> Result<Filter, Failure> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Choice::parse(&pairs)
            .map(|choice| choice.filter(now))
            .map_err(|e| format!("the form {pairs:?}: {e}").into())
    };
    Ok(vec![
        ("30 days", form(&[])?),
        ("30 days, pt", form(&[("language", "pt")])?),
        ("30 days, room", form(&[("room", synth::ROOM)])?),
        ("7 days", form(&[("period", "7")])?),
        ("90 days", form(&[("period", "90")])?),
        ("24 hours", form(&[("period", "1")])?),
    ])
}

/// Every report of a page.
#[derive(Debug, PartialEq)]
struct Reports {
    funnel: Funnel,
    days: Vec<Day>,
    effort: Effort,
    points: Points,
    tools: Vec<ToolReport>,
    coach: CoachReport,
}

/// The times of each query and of the page, and the reports of the first page.
struct Measured {
    times: Vec<Vec<Duration>>,
    reports: Reports,
}

/// `samples` pages for `filter` (after one to warm up: the file's pages into
/// the OS cache, statements prepared): each the six queries at once
/// (`together`; else the page's time is the sum of theirs), then each alone.
async fn measure(
    store: &Store,
    filter: &Filter,
    samples: usize,
    together: bool,
) -> Result<Measured, Failure> {
    let reports = page(store, filter).await?;
    let mut times = vec![Vec::with_capacity(samples); QUERIES.len() + 1];
    for _ in 0..samples {
        if together {
            let t = Instant::now();
            // The six at once, as `/insights` loads them.
            Data::load(store, filter).await?;
            times[QUERIES.len()].push(t.elapsed());
        }
        times[0].push(timed(store.funnel(filter)).await?);
        times[1].push(timed(store.per_day(filter)).await?);
        times[2].push(timed(store.effort(filter)).await?);
        times[3].push(timed(store.points(filter, CAP)).await?);
        times[4].push(timed(store.tools(filter)).await?);
        times[5].push(timed(store.coach(filter)).await?);
        if !together {
            let sum: Duration = (0..QUERIES.len())
                .map(|q| times[q].last().copied().unwrap_or_default())
                .sum();
            times[QUERIES.len()].push(sum);
        }
    }
    for t in &mut times {
        t.sort();
    }
    Ok(Measured { times, reports })
}

/// The six reports one after another (the reports compared before and after).
async fn page(store: &Store, filter: &Filter) -> Result<Reports, Failure> {
    Ok(Reports {
        funnel: store.funnel(filter).await?,
        days: store.per_day(filter).await?,
        effort: store.effort(filter).await?,
        points: store.points(filter, CAP).await?,
        tools: store.tools(filter).await?,
        coach: store.coach(filter).await?,
    })
}

async fn timed<T, E>(query: impl Future<Output = Result<T, E>>) -> Result<Duration, E> {
    let t = Instant::now();
    query.await?;
    Ok(t.elapsed())
}

/// The `q` quantile of sorted `samples` (nearest rank).
fn quantile(samples: &[Duration], q: f64) -> Duration {
    if samples.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((q * samples.len() as f64).ceil() as usize).clamp(1, samples.len());
    samples[rank - 1]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
