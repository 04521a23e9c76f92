//! Scenario 8, learning per language: model `a` answers well only in
//! English and `b` only in Chinese (in the other language their answers are
//! rejected; an empty answer stands in for one in the wrong language), `c`
//! and `d` as in the steady scenario; visitors alternate English and
//! Chinese. The default strategy runs with its records per model and
//! language, and with one record per model (the baseline); the table
//! shows the wasted calls (rejected or failed before the comment served) of
//! both, and the target is that per-language records waste fewer.

use std::fmt::Write as _;

use super::{
    report::{percent, Row},
    targets::Target,
};

/// The default strategy, records per model and language.
pub const PER_LANGUAGE: &str = "thompson";
/// The same, one record (and one quality breaker) per model.
pub const PER_MODEL: &str = "thompson, one record per model";
/// The rows of scenario 8, in this order.
pub const STRATEGIES: [&str; 2] = [PER_LANGUAGE, PER_MODEL];

/// The table of scenario 8.
pub fn block(rows: &[Row]) -> String {
    let Some(first) = rows.first() else {
        return String::new();
    };
    let mut out = format!(
        "\nScenario {}, visitors alternating English and Chinese: the calls wasted \
         (rejected or failed before the comment served) with the learned records \
         per model and language (the default) and with one record per model:\n\n\
         | records | wasted calls per 100 requests | success | p50 ms | p95 ms | calls/req |\n\
         |---|---:|---:|---:|---:|---:|\n",
        first.scenario.name()
    );
    for r in rows {
        let records = if r.strategy == PER_LANGUAGE {
            "per model and language"
        } else {
            "per model"
        };
        let _ = writeln!(
            out,
            "| {records} | {:.2} | {} | {} | {} | {:.2} |",
            100.0 * r.wasted_per_request,
            percent(r.success),
            r.p50,
            r.p95,
            r.calls_per_request,
        );
    }
    out
}

/// Per-language records waste fewer calls than one record per model.
pub fn target(rows: &[Row]) -> Option<Target> {
    Target::fewer(
        "per-language records waste fewer calls than one record per model (scenario 8)",
        rows,
        (PER_LANGUAGE, PER_MODEL),
        |r| r.wasted_per_request,
        "wasted calls per 100 requests",
    )
}
