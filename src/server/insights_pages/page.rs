//! `/insights`'s `<main>`: the filter form, the scope it shows, and the
//! seven sections (the funnel, effort, where learners get stuck, what
//! helps, the coach, per day, export), each a table and, where a picture
//! helps, an SVG ([`super::charts`]); or a sentence when recording is off,
//! the database does not answer, or no visit matches.

use insights::report::overview::{bin_label, median_place, Data, ATTEMPT_BINS, CAP, MINUTE_BINS};
use minijinja::context;
use serde::Serialize;

use super::{
    charts,
    filter::{Choice, Period},
    map_two, shell,
    tables::Tables,
    words::{date, lesson::lesson_words, words, Words},
};
use crate::page::{i18n::texts, two::words::two_words};
use insights::report::Which;
use insights::values::Minute;
use vocabulary::{fill, Lang};

/// What the page has to show.
pub enum Content<'a> {
    /// Recording is off: there is no store.
    Off,
    /// The store did not answer.
    Unavailable,
    /// The filter's visits.
    Data(&'a Data),
}

#[derive(Serialize)]
struct Choose {
    value: String,
    label: String,
    selected: bool,
    tag: Option<&'static str>,
}

#[derive(Serialize)]
struct Link {
    id: &'static str,
    title: &'static str,
}

#[derive(Serialize)]
struct Export<'a> {
    href: String,
    file: String,
    caption: &'a str,
}

/// The period as the scope sentence and the form say it.
fn period_label(w: &Words, p: Period) -> String {
    match p {
        Period::Days(1) => w.last_day.to_string(),
        Period::Days(n) => fill(w.last_days, &[("n", &n.to_string())]),
        Period::All => w.all_kept.to_string(),
    }
}

/// `?period=7&room=…` for the CSV links (the page's language is no filter).
pub fn filter_query(choice: &Choice) -> String {
    let pairs = choice.pairs();
    if pairs.is_empty() {
        return String::new();
    }
    let mut q = form_urlencoded::Serializer::new(String::new());
    q.extend_pairs(pairs);
    format!("?{}", q.finish())
}

/// The filter form's lessons.
fn lessons(w: &Words, choice: &Choice) -> Vec<Choose> {
    Which::ALL
        .into_iter()
        .map(|l| Choose {
            value: l.number().to_string(),
            label: w.lessons[l as usize].into(),
            selected: l == choice.lesson,
            tag: None,
        })
        .collect()
}

/// The filter form's choices.
fn form(w: &Words, choice: &Choice) -> (Vec<Choose>, Vec<Choose>) {
    let periods = Period::CHOICES
        .iter()
        .map(|&p| Choose {
            value: p.code(),
            label: period_label(w, p),
            selected: p == choice.period,
            tag: None,
        })
        .collect();
    let mut languages = vec![Choose {
        value: "all".into(),
        label: w.all_languages.into(),
        selected: choice.language.is_none(),
        tag: None,
    }];
    languages.extend(Lang::ALL.into_iter().map(|l| Choose {
        value: l.code().into(),
        label: l.endonym().into(),
        selected: choice.language == Some(l),
        tag: Some(l.html_tag()),
    }));
    (periods, languages)
}

/// The page's `<main>` in `lang`, for `choice` at `now`.
pub fn main(
    lang: Lang,
    choice: &Choice,
    now: Minute,
    content: Content<'_>,
) -> Result<String, minijinja::Error> {
    let w = words(lang);
    let t = texts(lang);
    let (periods, languages) = form(w, choice);
    let lessons = lessons(w, choice);
    let room = choice.room.as_ref().map_or("", |r| r.as_str());
    let base = context! {
        w, lang => lang.code(), periods, languages, lessons, room,
        on => !matches!(content, Content::Off),
        unavailable => matches!(content, Content::Unavailable),
    };
    let Content::Data(data) = content else {
        return shell::render("insights.html", base);
    };
    let visits = data.funnel.visits;
    let counted = !data.is_slow("funnel");
    let named = lesson_words(w, t, choice.lesson);
    let scope = fill(
        w.scope,
        &[
            ("lesson", named.name),
            ("period", &period_label(w, choice.period)),
            (
                "language",
                choice.language.map_or(w.all_languages, Lang::endonym),
            ),
            (
                "room",
                &choice.room.as_ref().map_or_else(
                    || w.all_rooms.to_string(),
                    |r| fill(w.in_room, &[("room", r.as_str())]),
                ),
            ),
            (
                "visits",
                &if counted {
                    t.num(visits as f64, 0)
                } else {
                    w.none.to_string()
                },
            ),
        ],
    );
    if visits == 0 && counted {
        return shell::render("insights.html", context! { empty => true, scope, ..base });
    }
    let tables = Tables::of(data, lang);
    let query = filter_query(choice);
    let shown = context! {
        funnel => tables.funnel.shown(&query),
        attempts => tables.attempts.shown(&query),
        minutes => tables.minutes.shown(&query),
        stuck => tables.stuck.shown(&query),
        tools => tables.tools.shown(&query),
        models => tables.models.shown(&query),
        rejections => tables.rejections.shown(&query),
        latency => tables.latency.shown(&query),
        teaching => tables.teaching.shown(&query),
        days => tables.days.shown(&query),
    };

    let f = &data.funnel;
    let counts = [
        f.visits,
        f.attempted,
        f.at_or_below[0],
        f.at_or_below[1],
        f.at_or_below[2],
        f.at_or_below[3],
    ];
    let steps: Vec<(&str, u64, String)> = counts
        .iter()
        .zip(named.steps.iter().map(String::as_str))
        .zip(&tables.funnel.rows)
        .map(|((&n, label), row)| (label, n, format!("{} · {}", row[1].shown, row[2].shown)))
        .collect();

    let effort = &data.effort;
    let reached = !effort.attempts.is_empty();
    let medians = match (effort.median_attempts(), effort.median_minutes()) {
        (Some(a), Some(m)) => fill(
            w.medians,
            &[
                ("attempts", &t.plain(a, 1)),
                ("minutes", &t.plain(m, 1)),
                ("n", &t.num(effort.attempts.len() as f64, 0)),
            ],
        ),
        _ => w.no_goal.to_string(),
    };
    let bins = |values: &[u64], bins: &[_]| -> Vec<(String, u64)> {
        bins.iter()
            .copied()
            .map(bin_label)
            .zip(insights::report::overview::bin_counts(values, bins))
            .collect()
    };
    let first_day = match choice.period {
        Period::Days(n) => now.days_before(n).day(),
        Period::All => data.days.first().map_or(now.day(), |d| d.day),
    };
    let (first_label, last_label) = (date(lang, first_day), date(lang, now.day()));
    // The map the lesson's page shows, and the name of its button that zooms
    // as this one is zoomed (if it is).
    let (map, zoomed, zoom) = match data.lesson {
        Which::One => {
            let (view, zoomed) = charts::view_for(&data.points);
            (charts::map(t, &data.points, &view), zoomed, t.zoom)
        }
        Which::Two => {
            let (map, near) = map_two::map(&data.points);
            (map, near, two_words(lang).map_near)
        }
    };
    let svg = context! {
        funnel => charts::funnel(&steps),
        attempts => charts::histogram(&bins(&effort.attempts, &ATTEMPT_BINS), median_place(&effort.attempts, &ATTEMPT_BINS), w.median),
        minutes => charts::histogram(&bins(&effort.minutes, &MINUTE_BINS), median_place(&effort.minutes, &MINUTE_BINS), w.median),
        map,
        days => charts::days(&data.days, first_day, now.day(), (&first_label, &last_label)),
    };

    let coach = &data.coach;
    let offline = if coach.comments == 0 {
        w.no_comments.to_string()
    } else {
        let share = fill(
            w.percent,
            &[("n", &t.plain(coach.offline_share() * 100.0, 1))],
        );
        fill(
            w.offline_share,
            &[
                ("share", &share),
                ("n", &t.num(coach.offline as f64, 0)),
                ("total", &t.num(coach.comments as f64, 0)),
            ],
        )
    };
    let toc: Vec<Link> = [
        ("funnel", w.funnel),
        ("effort", w.effort),
        ("stuck", w.stuck),
        ("helps", w.helps),
        ("coach", w.coach),
        ("days", w.days),
        ("export", w.export),
    ]
    .into_iter()
    .map(|(id, title)| Link { id, title })
    .collect();
    let exports: Vec<Export<'_>> = tables
        .all()
        .into_iter()
        .map(|table| Export {
            href: format!("/insights/{}.csv{query}", table.name),
            file: format!("{}.csv", table.name),
            caption: &table.caption,
        })
        .collect();
    shell::render(
        "insights.html",
        context! {
            scope, toc, medians, reached, offline, exports, svg,
            effort_note => named.effort_note,
            goal_island => named.goal_island,
            slow => data.slow,
            votes_kept => data.teaching.votes,
            t => shown,
            stuck_note => fill(w.stuck_note, &[("cap", &t.num(f64::from(CAP), 0))]),
            stuck_summary => fill(w.stuck_summary, &[("stuck", &t.num(f.attempted.saturating_sub(f.reached_goal()) as f64, 0)), ("arrived", &t.num(f.reached_goal() as f64, 0))]),
            points_csv => format!("/insights/points.csv{query}"),
            zoomed => zoomed.then(|| fill(w.zoomed, &[("zoom", zoom)])),
            map_class => if data.lesson == Which::Two { "insights-map" } else { "landscape insights-map" },
            ..base
        },
    )
}

#[cfg(test)]
mod tests;
