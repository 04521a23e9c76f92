//! Scenario 9, voting visitors: model `a`, the fastest, answers every time
//! in a way the reply checks pass, but its comments help one reader in ten
//! (the others' eight in ten); only a reader can tell. The default strategy
//! runs with nobody voting, and with 30 % of the visitors voting on the
//! comment they read (up if it helped, down if not); the table shows the
//! comments served that did not help, per 100 requests, and `a`'s share of
//! the comments, and the target is that votes waste fewer.

use std::fmt::Write as _;

use super::{
    report::{percent, Row},
    targets::Target,
};

/// The default strategy, nobody voting.
pub const WITHOUT: &str = "thompson, nobody votes";
/// The same, 30 % of the visitors voting.
pub const WITH: &str = "thompson, 30 % of visitors vote";
/// The rows of scenario 9, in this order.
pub const STRATEGIES: [&str; 2] = [WITHOUT, WITH];
/// The share of visitors who vote on the comment they read.
pub const VOTERS: f64 = 0.3;

/// The table of scenario 9.
pub fn block(rows: &[Row]) -> String {
    let Some(first) = rows.first() else {
        return String::new();
    };
    let mut out = format!(
        "\nScenario {}: the comments served that did not help their reader, \
         with nobody voting and with 30 % of the visitors voting on the comment \
         they read (the reply checks pass every one of `a`'s):\n\n\
         | votes | wasted comments per 100 requests | `a`'s share of the comments | success | p50 ms | p95 ms |\n\
         |---|---:|---:|---:|---:|---:|\n",
        first.scenario.name()
    );
    for r in rows {
        let votes = if r.strategy == WITH {
            "30 % of visitors"
        } else {
            "none"
        };
        let _ = writeln!(
            out,
            "| {votes} | {:.2} | {} | {} | {} | {} |",
            100.0 * r.unhelpful_per_request,
            percent(r.a_share),
            percent(r.success),
            r.p50,
            r.p95,
        );
    }
    out
}

/// Votes waste fewer comments than none.
pub fn target(rows: &[Row]) -> Option<Target> {
    Target::fewer(
        "visitors' votes waste fewer comments than none (scenario 9)",
        rows,
        (WITH, WITHOUT),
        |r| r.unhelpful_per_request,
        "wasted comments per 100 requests",
    )
}
