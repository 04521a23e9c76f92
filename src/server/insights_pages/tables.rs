//! The page's tables, made from the [`Data`] in the reader's language (the
//! page's own number formats): one per section, and the map's points (a CSV
//! file only). The same tables are the page's and its CSV files'.

mod coach;

use super::{
    cells::{bin_cell, share, Fmt},
    table::{columns, Cell, Table},
    words::{date, iso_date, lesson::lesson_words, tool, words},
};
use crate::page::i18n::texts;
use insights::lessons;
use insights::report::overview::{bands, bin_counts, Bin, Data, ATTEMPT_BINS, MINUTE_BINS};
use insights::report::{
    effort::{marks, Point},
    tools::Group,
    Which,
};
use vocabulary::{format::plain, Lang};

/// Every table of the page, in its order.
pub struct Tables {
    pub funnel: Table,
    pub attempts: Table,
    pub minutes: Table,
    pub stuck: Table,
    pub points: Table,
    pub tools: Table,
    pub models: Table,
    pub rejections: Table,
    pub latency: Table,
    pub teaching: Table,
    pub days: Table,
}

/// Effort, as a histogram: `(name, caption, first column's heading)`.
fn histogram(
    f: &Fmt,
    (name, caption, heading): (&'static str, &str, &str),
    values: &[u64],
    bins: &[Bin],
) -> Table {
    let mut t = Table::new(
        name,
        caption,
        columns(&[
            (name, heading),
            ("visits", f.w.col_visits),
            ("share", f.w.col_share),
        ]),
    );
    let total = values.len() as u64;
    for (&bin, n) in bins.iter().zip(bin_counts(values, bins)) {
        t.rows.push(vec![
            bin_cell(f.w, bin),
            f.count(n),
            f.share(share(n, total)),
        ]);
    }
    t
}

impl Tables {
    /// Every table's name, in the page's order (its CSV file is `<name>.csv`).
    pub const NAMES: [&'static str; 11] = [
        "funnel",
        "attempts",
        "minutes",
        "stuck",
        "points",
        "tools",
        "models",
        "rejections",
        "latency",
        "teaching",
        "days",
    ];

    /// Each table's section (`Data::slow`'s ids): the report it is made of.
    pub const SECTIONS: [(&'static str, &'static str); 11] = [
        ("funnel", "funnel"),
        ("attempts", "effort"),
        ("minutes", "effort"),
        ("stuck", "stuck"),
        ("points", "stuck"),
        ("tools", "helps"),
        ("models", "coach"),
        ("rejections", "coach"),
        ("latency", "coach"),
        ("teaching", "coach"),
        ("days", "days"),
    ];

    /// The tables of `data` in `lang`.
    pub fn of(data: &Data, lang: Lang) -> Self {
        let f = Fmt {
            lang,
            t: texts(lang),
            w: words(lang),
        };
        let (w, effort) = (f.w, &data.effort);
        let (models, rejections, latency) = coach::coach(&f, data);
        Self {
            funnel: funnel(&f, data),
            attempts: histogram(
                &f,
                ("attempts", w.attempts_caption, w.col_attempts),
                &effort.attempts,
                &ATTEMPT_BINS,
            ),
            minutes: histogram(
                &f,
                ("minutes", w.minutes_caption, w.col_minutes),
                &effort.minutes,
                &MINUTE_BINS,
            ),
            stuck: stuck(&f, data),
            points: points(&f, data),
            tools: tools(&f, data),
            models,
            rejections,
            latency,
            teaching: coach::teaching(&f, data),
            days: days(&f, data),
        }
    }

    /// Every table, in the page's order.
    pub fn all(&self) -> [&Table; 11] {
        [
            &self.funnel,
            &self.attempts,
            &self.minutes,
            &self.stuck,
            &self.points,
            &self.tools,
            &self.models,
            &self.rejections,
            &self.latency,
            &self.teaching,
            &self.days,
        ]
    }

    /// The table whose file is `name` (`funnel`, `days`, …).
    pub fn named(&self, name: &str) -> Option<&Table> {
        self.all().into_iter().find(|t| t.name == name)
    }
}

/// A figure as a CSV key writes it: `799`, `1423.44`.
fn key_number(x: f64) -> String {
    plain(x, 2)
}

/// The funnel: each step's count, its share of all visits and
/// of the step before (the steps' keys name the lesson's figures:
/// `at_or_below_799`, `goal_450`; `goal_below_1420`).
fn funnel(f: &Fmt, data: &Data) -> Table {
    let rungs = lessons::rungs(data.lesson).map(|r| format!("at_or_below_{}", key_number(r)));
    let goal = match data.lesson {
        Which::One => format!("goal_{}", key_number(lessons::goal(data.lesson))),
        Which::Two => format!("goal_below_{}", key_number(lessons::goal(data.lesson))),
    };
    let keys = [
        "visits".to_string(),
        "attempted".into(),
        rungs[0].clone(),
        rungs[1].clone(),
        rungs[2].clone(),
        goal,
    ];
    let named = lesson_words(f.w, f.t, data.lesson);
    let (w, d) = (f.w, &data.funnel);
    let steps = [
        d.visits,
        d.attempted,
        d.at_or_below[0],
        d.at_or_below[1],
        d.at_or_below[2],
        d.at_or_below[3],
    ];
    let mut t = Table::new(
        "funnel",
        w.funnel_caption,
        columns(&[
            ("step", w.col_step),
            ("visits", w.col_visits),
            ("share_of_visits", w.col_share_all),
            ("share_of_step_before", w.col_share_before),
        ]),
    );
    for (i, &n) in steps.iter().enumerate() {
        let before = i.checked_sub(1).and_then(|b| share(n, steps[b]));
        t.rows.push(vec![
            Cell::new(keys[i].clone(), named.steps[i].clone()),
            f.count(n),
            f.share(share(n, d.visits)),
            f.share(before),
        ]);
    }
    t
}

/// Where the visits that did not reach the goal stopped, by band (keys
/// `above_799`, `600_to_799`, `500_to_600`, `450_to_500` in lesson 1),
/// with the medians of the lesson's parameters.
fn stuck(f: &Fmt, data: &Data) -> Table {
    let [a, b, c] = lessons::rungs(data.lesson).map(key_number);
    let goal = key_number(lessons::goal(data.lesson));
    let keys = [
        format!("above_{a}"),
        format!("{b}_to_{a}"),
        format!("{c}_to_{b}"),
        format!("{goal}_to_{c}"),
    ];
    let named = lesson_words(f.w, f.t, data.lesson);
    let w = f.w;
    let two = data.lesson == Which::Two;
    let medians: &[(&str, &str)] = if two {
        &[
            ("median_w1", w.col_median_two[0]),
            ("median_w2", w.col_median_two[1]),
            ("median_b", w.col_median_two[2]),
        ]
    } else {
        &[
            ("median_weight", w.col_median_weight),
            ("median_bias", w.col_median_bias),
        ]
    };
    let mut heads = vec![("last_error", w.col_last_error), ("visits", w.col_visits)];
    heads.extend_from_slice(medians);
    let mut t = Table::new("stuck", w.stuck_caption, columns(&heads));
    for (i, band) in bands(data.lesson, &data.points.stuck)
        .into_iter()
        .enumerate()
    {
        let mut row = vec![
            Cell::new(keys[i].clone(), named.bands[i].clone()),
            f.count(band.visits),
            f.value(band.median_weight, 4),
        ];
        if two {
            row.push(f.value(band.median_weight2, 2));
        }
        row.push(f.value(band.median_bias, 1));
        t.rows.push(row);
    }
    t
}

/// Every point the map draws (a CSV file only): the stuck visits' last
/// points, then each path's points in order (`point`: its place on the
/// drawn path, which keeps a long path's first, some between, and its last).
fn points(f: &Fmt, data: &Data) -> Table {
    let two = data.lesson == Which::Two;
    let keys: &[&str] = if two {
        &["kind", "visit", "point", "w1", "w2", "b", "error"]
    } else {
        &["kind", "visit", "point", "weight", "bias", "error"]
    };
    let heads: Vec<(&str, &str)> = keys.iter().map(|&k| (k, k)).collect();
    let mut t = Table::new("points", f.w.points_caption, columns(&heads));
    let row = |kind: &str, visit: usize, attempt: String, p: &Point| {
        let mut row = vec![
            Cell::text(kind),
            Cell::text(visit.to_string()),
            Cell::text(attempt),
            Cell::text(plain(p.weight, 6)),
        ];
        if two {
            row.push(Cell::text(plain(p.weight2, 4)));
        }
        row.push(Cell::text(plain(p.bias, 4)));
        row.push(Cell::text(plain(p.error, 4)));
        row
    };
    for (i, p) in data.points.stuck.iter().enumerate() {
        t.rows.push(row("stuck", i + 1, String::new(), p));
    }
    for (i, path) in data.points.paths.iter().enumerate() {
        for (j, p) in marks(path).into_iter().enumerate() {
            t.rows.push(row("path", i + 1, (j + 1).to_string(), p));
        }
    }
    t
}

/// What helps: each tool's users against the rest.
fn tools(f: &Fmt, data: &Data) -> Table {
    let w = f.w;
    let mut t = Table::new(
        "tools",
        w.helps_caption,
        columns(&[
            ("tool", w.col_tool),
            ("visits_with", w.col_with),
            ("goal_rate_with", w.col_with_rate),
            ("median_attempts_with", w.col_with_median),
            ("visits_without", w.col_without),
            ("goal_rate_without", w.col_without_rate),
            ("median_attempts_without", w.col_without_median),
        ]),
    );
    let group = |g: &Group| {
        [
            f.count(g.visits),
            f.share(g.goal_rate()),
            f.value(g.median_attempts_to_goal, 1),
        ]
    };
    for r in &data.tools {
        let mut row = vec![Cell::new(r.tool.code(), tool(f.lang, r.tool))];
        row.extend(group(&r.used));
        row.extend(group(&r.not_used));
        t.rows.push(row);
    }
    t
}

/// Per day: visits, those that reached the goal, and the rate.
fn days(f: &Fmt, data: &Data) -> Table {
    let w = f.w;
    let mut t = Table::new(
        "days",
        w.days_caption,
        columns(&[
            ("day", w.col_day),
            ("visits", w.col_visits),
            ("reached_goal", w.col_reached),
            ("goal_rate", w.col_goal_rate),
        ]),
    );
    for d in &data.days {
        t.rows.push(vec![
            Cell::new(iso_date(d.day), date(f.lang, d.day)),
            f.count(d.visits),
            f.count(d.reached_goal),
            f.share(share(d.reached_goal, d.visits)),
        ]);
    }
    t
}
