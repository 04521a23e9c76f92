//! The page's tables, made from the [`Data`] in the reader's language (the
//! page's own number formats): one per section, and the map's points (a CSV
//! file only). The same tables are the page's and its CSV files'.

use super::{
    data::{bands, bin_counts, Bin, Data, ATTEMPT_BINS, MINUTE_BINS},
    table::{columns, Cell, Table},
    words::{date, iso_date, tool, words, Words},
};
use crate::{
    coach::Lang,
    insights::report::tools::Group,
    lesson::format::plain,
    page::i18n::{endonym, fill, texts, Texts},
};

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
    pub days: Table,
}

/// How numbers are written on the page, and in the CSV files.
struct Fmt {
    t: &'static Texts,
    w: &'static Words,
}

impl Fmt {
    fn count(&self, n: u64) -> Cell {
        Cell::new(n.to_string(), self.t.num(n as f64, 0))
    }

    /// A share (0 to 1): `0.4167` and `41.7%`.
    fn share(&self, share: Option<f64>) -> Cell {
        match share {
            Some(s) if s.is_finite() => Cell::new(
                format!("{s:.4}"),
                fill(self.w.percent, &[("n", &self.t.plain(s * 100.0, 1))]),
            ),
            _ => Cell::new("", self.w.none),
        }
    }

    /// A value with at most `decimals` decimals (a median, a weight).
    fn value(&self, v: Option<f64>, decimals: usize) -> Cell {
        match v {
            Some(v) if v.is_finite() => Cell::new(plain(v, decimals), self.t.plain(v, decimals)),
            _ => Cell::new("", self.w.none),
        }
    }

    fn ms(&self, ms: u64) -> Cell {
        Cell::new(
            ms.to_string(),
            fill(self.w.ms, &[("n", &self.t.num(ms as f64, 0))]),
        )
    }
}

/// A share of `part` in `whole`, `None` for no whole.
pub fn share(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

/// A bin as the table names it: `3`, `4 to 5`, `51 or more`.
fn bin_cell(w: &Words, (from, to): Bin) -> Cell {
    let raw = super::data::bin_label((from, to)).replace('–', "-");
    let shown = match to {
        Some(to) if to == from => from.to_string(),
        Some(to) => fill(
            w.bin,
            &[("from", &from.to_string()), ("to", &to.to_string())],
        ),
        None => fill(w.bin_open, &[("from", &from.to_string())]),
    };
    Cell::new(raw, shown)
}

fn histogram(
    f: &Fmt,
    name: &'static str,
    caption: &str,
    key: (&'static str, &str),
    values: &[u64],
    bins: &[Bin],
) -> Table {
    let mut t = Table::new(
        name,
        caption,
        columns(&[key, ("visits", f.w.col_visits), ("share", f.w.col_share)]),
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
    pub const NAMES: [&'static str; 10] = [
        "funnel",
        "attempts",
        "minutes",
        "stuck",
        "points",
        "tools",
        "models",
        "rejections",
        "latency",
        "days",
    ];

    /// The tables of `data` in `lang`.
    pub fn of(data: &Data, lang: Lang) -> Self {
        let f = Fmt {
            t: texts(lang),
            w: words(lang),
        };
        let w = f.w;
        let funnel = {
            let d = &data.funnel;
            let steps = [
                d.visits,
                d.attempted,
                d.at_or_below[0],
                d.at_or_below[1],
                d.at_or_below[2],
                d.at_or_below[3],
            ];
            let keys = [
                "visits",
                "attempted",
                "at_or_below_799",
                "at_or_below_600",
                "at_or_below_500",
                "goal_450",
            ];
            let mut t = Table::new(
                "funnel",
                w.funnel,
                columns(&[
                    ("step", w.col_step),
                    ("visits", w.col_visits),
                    ("share_of_visits", w.col_share_all),
                    ("share_of_step_before", w.col_share_before),
                ]),
            );
            for (i, &n) in steps.iter().enumerate() {
                let before = if i == 0 { None } else { share(n, steps[i - 1]) };
                t.rows.push(vec![
                    Cell::new(keys[i], w.steps[i]),
                    f.count(n),
                    f.share(share(n, d.visits)),
                    f.share(before),
                ]);
            }
            t
        };
        let effort = &data.effort;
        let attempts = histogram(
            &f,
            "attempts",
            w.attempts_caption,
            ("attempts", w.col_attempts),
            &effort.attempts,
            &ATTEMPT_BINS,
        );
        let minutes = histogram(
            &f,
            "minutes",
            w.minutes_caption,
            ("minutes", w.col_minutes),
            &effort.minutes,
            &MINUTE_BINS,
        );

        let mut stuck = Table::new(
            "stuck",
            w.stuck_caption,
            columns(&[
                ("last_error", w.col_last_error),
                ("visits", w.col_visits),
                ("median_weight", w.col_median_weight),
                ("median_bias", w.col_median_bias),
            ]),
        );
        let band_keys = ["above_799", "600_to_799", "500_to_600", "450_to_500"];
        for (i, band) in bands(&data.points.stuck).into_iter().enumerate() {
            stuck.rows.push(vec![
                Cell::new(band_keys[i], w.bands[i]),
                f.count(band.visits),
                f.value(band.median_weight, 4),
                f.value(band.median_bias, 1),
            ]);
        }

        let mut points = Table::new(
            "points",
            w.points_csv,
            columns(&[
                ("kind", "kind"),
                ("visit", "visit"),
                ("attempt", "attempt"),
                ("weight", "weight"),
                ("bias", "bias"),
                ("error", "error"),
            ]),
        );
        let raw = |v: f64, d: usize| Cell::text(plain(v, d));
        for (i, p) in data.points.stuck.iter().enumerate() {
            points.rows.push(vec![
                Cell::text("stuck"),
                Cell::text((i + 1).to_string()),
                Cell::text(""),
                raw(p.weight, 6),
                raw(p.bias, 4),
                raw(p.error, 4),
            ]);
        }
        for (i, path) in data.points.paths.iter().enumerate() {
            for (j, p) in path.iter().enumerate() {
                points.rows.push(vec![
                    Cell::text("path"),
                    Cell::text((i + 1).to_string()),
                    Cell::text((j + 1).to_string()),
                    raw(p.weight, 6),
                    raw(p.bias, 4),
                    raw(p.error, 4),
                ]);
            }
        }

        let mut tools = Table::new(
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
            let mut row = vec![Cell::new(r.tool.code(), tool(lang, r.tool))];
            row.extend(group(&r.used));
            row.extend(group(&r.not_used));
            tools.rows.push(row);
        }

        let coach = &data.coach;
        let mut models = Table::new(
            "models",
            w.models_caption,
            columns(&[
                ("model", w.col_model),
                ("comments", w.col_comments),
                ("share", w.col_share),
            ]),
        );
        for (model, n) in &coach.per_model {
            models.rows.push(vec![
                Cell::text(model.as_str()),
                f.count(*n),
                f.share(share(*n, coach.comments)),
            ]);
        }
        let mut rejections = Table::new(
            "rejections",
            w.rejections_caption,
            columns(&[("reason", w.col_reason), ("comments", w.col_comments)]),
        );
        for (reason, n) in &coach.rejections {
            rejections
                .rows
                .push(vec![Cell::text(reason.as_str()), f.count(*n)]);
        }
        let mut latency = Table::new(
            "latency",
            w.latency_caption,
            columns(&[
                ("model", w.col_model),
                ("language", w.col_language),
                ("comments", w.col_comments),
                ("p50_ms", w.col_p50),
                ("p95_ms", w.col_p95),
            ]),
        );
        for l in &coach.latency {
            latency.rows.push(vec![
                Cell::text(l.model.as_str()),
                Cell::new(l.lang.code(), endonym(l.lang)),
                f.count(l.comments),
                f.ms(l.p50_ms),
                f.ms(l.p95_ms),
            ]);
        }

        let mut days = Table::new(
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
            days.rows.push(vec![
                Cell::new(iso_date(d.day), date(lang, d.day)),
                f.count(d.visits),
                f.count(d.reached_goal),
                f.share(share(d.reached_goal, d.visits)),
            ]);
        }
        Self {
            funnel,
            attempts,
            minutes,
            stuck,
            points,
            tools,
            models,
            rejections,
            latency,
            days,
        }
    }

    /// Every table, in the page's order.
    pub fn all(&self) -> [&Table; 10] {
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
            &self.days,
        ]
    }

    /// The table whose file is `name` (`funnel`, `days`, …).
    pub fn named(&self, name: &str) -> Option<&Table> {
        self.all().into_iter().find(|t| t.name == name)
    }
}
