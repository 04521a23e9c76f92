//! The coach section's tables: comments per model, refusals per reason,
//! latencies, and what teaches (votes and what the learners did next, per
//! writer and language, each share with its 95 % interval and how it stands
//! against the built-in coach's).

use super::super::{
    cells::{share, Fmt},
    table::{columns, Cell, Table},
};
use insights::report::{
    overview::Data,
    share::{Difference, Share},
    teaching::{TeachingRow, OFFLINE},
};
use vocabulary::fill;

/// The coach: comments per model, refusals per reason, latencies.
pub(super) fn coach(f: &Fmt, data: &Data) -> (Table, Table, Table) {
    let (w, coach) = (f.w, &data.coach);
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
    latency.columns[1].text = true;
    for l in &coach.latency {
        latency.rows.push(vec![
            Cell::text(l.model.as_str()),
            Cell::new(l.lang.code(), l.lang.endonym()),
            f.count(l.comments),
            f.ms(l.p50_ms),
            f.ms(l.p95_ms),
        ]);
    }
    (models, rejections, latency)
}

/// What teaches: per writer and language, its comments, and each share
/// (helpful votes, next attempt better, goal within five) with its interval
/// and how it stands against the built-in coach's in the same language; the
/// CSV file has each count and each interval's bounds in columns of their own.
pub(super) fn teaching(f: &Fmt, data: &Data) -> Table {
    let (w, tw) = (f.w, f.w.teaching);
    let mut t = Table::new(
        "teaching",
        tw.caption,
        columns(&[
            ("model", tw.col_writer),
            ("language", w.col_language),
            ("comments", w.col_comments),
            ("votes", ""),
            ("helpful", tw.col_helpful),
            ("helpful_low", ""),
            ("helpful_high", ""),
            ("helpful_vs_builtin", ""),
            ("followed", ""),
            ("improved", tw.col_improved),
            ("improved_low", ""),
            ("improved_high", ""),
            ("improved_vs_builtin", ""),
            ("above_goal", ""),
            ("reached_in_5", tw.col_reached),
            ("reached_low", ""),
            ("reached_high", ""),
            ("reached_vs_builtin", ""),
        ]),
    );
    t.columns[1].text = true;
    // Unlabelled: the CSV file's only (the page writes the counts, bounds and
    // comparisons in the share's own cell).
    for c in &mut t.columns {
        c.csv_only = c.label.is_empty();
    }
    let report = &data.teaching;
    for row in &report.rows {
        let baseline = report.offline(row.lang).filter(|b| b.model != row.model);
        let mut cells = vec![
            if row.model == OFFLINE {
                Cell::new(OFFLINE, tw.offline)
            } else {
                Cell::text(row.model.as_str())
            },
            Cell::new(row.lang.code(), row.lang.endonym()),
            f.count(row.comments),
        ];
        let measures: [fn(&TeachingRow) -> Share; 3] =
            [|r| r.helpful, |r| r.improved, |r| r.reached];
        for pick in measures {
            let s = pick(row);
            let against = match (row.model == OFFLINE, baseline) {
                (true, _) => Cell::new("baseline", tw.baseline),
                (false, Some(b)) => difference(f, row.against(b, pick)),
                (false, None) => Cell::new("", w.none),
            };
            let [mut share, low, high] = shared(f, s);
            if s.of > 0 && row.model != OFFLINE && !against.raw.is_empty() {
                share.shown = format!("{} · {}", share.shown, against.shown);
            }
            cells.extend([f.count(s.of), share, low, high, against]);
        }
        t.rows.push(cells);
    }
    t
}

/// A share's three cells: the share as the page writes it (with its count
/// and interval), and the interval's bounds for the CSV file.
fn shared(f: &Fmt, s: Share) -> [Cell; 3] {
    let (Some(rate), Some((low, high))) = (s.rate(), s.interval()) else {
        return [
            Cell::new("", f.w.none),
            Cell::new("", ""),
            Cell::new("", ""),
        ];
    };
    let percent = |x: f64| fill(f.w.percent, &[("n", &f.t.plain(x * 100.0, 1))]);
    let shown = fill(
        f.w.teaching.share_of,
        &[
            ("share", &percent(rate)),
            ("n", &f.t.num(s.of as f64, 0)),
            ("low", &percent(low)),
            ("high", &percent(high)),
        ],
    );
    [
        Cell::new(format!("{rate:.4}"), shown),
        Cell::new(format!("{low:.4}"), ""),
        Cell::new(format!("{high:.4}"), ""),
    ]
}

fn difference(f: &Fmt, d: Difference) -> Cell {
    let tw = f.w.teaching;
    match d {
        Difference::Higher => Cell::new("higher", tw.higher),
        Difference::Lower => Cell::new("lower", tw.lower),
        Difference::WithinNoise => Cell::new("within_noise", tw.within_noise),
        Difference::Unknown => Cell::new("", f.w.none),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::insights_pages::{tables::Tables, words::words};
    use insights::report::teaching::TeachingReport;
    use vocabulary::Lang;

    fn row(model: &str, helpful: (u64, u64), improved: (u64, u64)) -> TeachingRow {
        TeachingRow {
            model: model.into(),
            lang: Lang::Pt,
            comments: 120,
            helpful: Share::new(helpful.0, helpful.1),
            improved: Share::new(improved.0, improved.1),
            reached: Share::default(),
        }
    }

    #[test]
    fn each_writer_against_the_built_in_coach_on_the_page_and_in_the_csv() {
        let data = Data {
            teaching: TeachingReport {
                rows: vec![
                    row("offline", (20, 100), (50, 100)),
                    row("qwen", (80, 100), (55, 100)),
                ],
                votes: true,
            },
            ..Data::default()
        };
        let tables = Tables::of(&data, Lang::Pt);
        let t = &tables.teaching;
        let shown = t.shown("");
        let labels: Vec<&str> = shown.columns.iter().map(|c| c.label.as_str()).collect();
        let (w, tw) = (words(Lang::Pt), words(Lang::Pt).teaching);
        let columns = [w.col_language, w.col_comments, tw.col_helpful];
        assert_eq!(
            labels,
            [
                tw.col_writer,
                columns[0],
                columns[1],
                columns[2],
                tw.col_improved,
                tw.col_reached
            ]
        );
        assert_eq!(
            shown.rows[0],
            [
                "treinador embutido",
                "Português",
                "120",
                "20% de 100 (13,3%–28,9%)",
                "50% de 100 (40,4%–59,6%)",
                "—"
            ]
        );
        assert_eq!(shown.rows[1][3], "80% de 100 (71,1%–86,7%) · acima");
        assert_eq!(
            shown.rows[1][4],
            "55% de 100 (45,2%–64,4%) · dentro do ruído"
        );
        assert_eq!(shown.rows[1][5], "—", "no comment above the goal");
        let csv = String::from_utf8(t.csv().expect("a CSV file")).expect("UTF-8");
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("model,language,comments,votes,helpful,helpful_low,helpful_high,helpful_vs_builtin,followed,improved,improved_low,improved_high,improved_vs_builtin,above_goal,reached_in_5,reached_low,reached_high,reached_vs_builtin")
        );
        assert_eq!(
            lines.next(),
            Some("offline,pt,120,100,0.2000,0.1334,0.2888,baseline,100,0.5000,0.4038,0.5962,baseline,0,,,,baseline")
        );
        assert_eq!(
            lines.next(),
            Some("qwen,pt,120,100,0.8000,0.7112,0.8666,higher,100,0.5500,0.4524,0.6439,within_noise,0,,,,")
        );
    }
}
