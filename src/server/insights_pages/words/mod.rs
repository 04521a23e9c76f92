//! Every word of the insights' pages in English, Brazilian Portuguese and
//! Simplified Chinese: one [`Language`] per language, one file each
//! (`/insights`, the room view, the notices, the shell, the tools' names, the
//! date format), picked by [`language`]. Templates hold `{name}` placeholders
//! filled by [`vocabulary::fill`]; numbers are written by the page's own
//! [`Texts`](crate::page::i18n::Texts) formats.

mod en;
pub mod lesson;
mod pt;
pub mod room;
pub mod teaching;
mod zh;

use serde::Serialize;

use insights::codes::Tool;
use room::RoomWords;
use teaching::TeachingWords;
use vocabulary::{fill, Lang};

/// Every word of the page in one language.
#[derive(Debug, Serialize)]
pub struct Words {
    /// The document's title.
    pub title: &'static str,
    pub heading: &'static str,
    pub lead: &'static str,
    /// Recording is off (`JAY_INSIGHTS=off`).
    pub off: &'static str,
    /// The database does not answer.
    pub unavailable: &'static str,
    // The filter.
    /// The lesson field's label, and each lesson's name (lesson 1, 2).
    pub lesson: &'static str,
    pub lessons: [&'static str; 2],
    /// Each lesson's goal, as its steps, notes and key say it after "error"
    /// (lesson 1: "450 or less"; lesson 2: "below 1,420"): `{goal}`.
    pub goal_phrases: [&'static str; 2],
    pub filter: &'static str,
    pub period: &'static str,
    /// `{n}`.
    pub last_days: &'static str,
    pub last_day: &'static str,
    pub all_kept: &'static str,
    pub language: &'static str,
    pub all_languages: &'static str,
    pub room: &'static str,
    pub room_hint: &'static str,
    pub all_rooms: &'static str,
    /// `{room}`.
    pub in_room: &'static str,
    pub show: &'static str,
    /// `{lesson}`, `{period}`, `{language}`, `{room}`, `{visits}`.
    pub scope: &'static str,
    pub empty: &'static str,
    pub empty_hint: &'static str,
    pub sections: &'static str,
    pub csv: &'static str,
    pub none: &'static str,
    /// `{n}`: a share in per cent.
    pub percent: &'static str,
    /// `{n}`: milliseconds.
    pub ms: &'static str,
    // 1. The funnel.
    pub funnel: &'static str,
    pub funnel_note: &'static str,
    /// Visits, a first attempt, at or below each of the lesson's three rungs
    /// (`{rung}`), the goal (`{goal}`).
    pub steps: [&'static str; 6],
    pub funnel_caption: &'static str,
    pub col_step: &'static str,
    pub col_visits: &'static str,
    pub col_share_all: &'static str,
    pub col_share_before: &'static str,
    // 2. Effort.
    pub effort: &'static str,
    /// `{goal}`.
    pub effort_note: &'static str,
    /// `{attempts}`, `{minutes}`, `{n}`.
    pub medians: &'static str,
    pub no_goal: &'static str,
    pub attempts_caption: &'static str,
    pub minutes_caption: &'static str,
    pub col_attempts: &'static str,
    pub col_minutes: &'static str,
    pub col_share: &'static str,
    /// A bin's label: `{from}`, `{to}`; the last bin's: `{from}`.
    pub bin: &'static str,
    pub bin_open: &'static str,
    /// The median's mark on a histogram.
    pub median: &'static str,
    // 3. Where learners get stuck.
    pub stuck: &'static str,
    /// `{cap}`.
    pub stuck_note: &'static str,
    pub stuck_dot: &'static str,
    pub arrived_line: &'static str,
    /// `{goal}`.
    pub goal_island: &'static str,
    /// The map is zoomed on the valley: `{zoom}` (the page's button).
    pub zoomed: &'static str,
    /// `{stuck}`, `{arrived}`.
    pub stuck_summary: &'static str,
    pub stuck_caption: &'static str,
    pub col_last_error: &'static str,
    pub col_median_weight: &'static str,
    /// Lesson 2's medians: w1, w2, b.
    pub col_median_two: [&'static str; 3],
    pub col_median_bias: &'static str,
    /// Last errors above the first rung (`{a}`), between it and the second
    /// (`{b}`), the second and the third (`{c}`), the third and the goal.
    pub bands: [&'static str; 4],
    pub points_csv: &'static str,
    pub points_caption: &'static str,
    // 4. What helps.
    pub helps: &'static str,
    pub helps_note: &'static str,
    pub helps_caption: &'static str,
    pub col_tool: &'static str,
    pub col_with: &'static str,
    pub col_with_rate: &'static str,
    pub col_with_median: &'static str,
    pub col_without: &'static str,
    pub col_without_rate: &'static str,
    pub col_without_median: &'static str,
    // 5. The coach.
    pub coach: &'static str,
    /// `{share}`, `{n}`, `{total}`.
    pub offline_share: &'static str,
    pub no_comments: &'static str,
    pub models_caption: &'static str,
    pub col_model: &'static str,
    pub col_comments: &'static str,
    pub rejections_caption: &'static str,
    pub no_rejections: &'static str,
    pub col_reason: &'static str,
    pub latency_caption: &'static str,
    pub col_language: &'static str,
    pub col_p50: &'static str,
    pub col_p95: &'static str,
    /// What teaches: votes and outcomes per writer (`tables::teaching`).
    pub teaching: &'static TeachingWords,
    // 6. Per day.
    pub days: &'static str,
    pub days_note: &'static str,
    pub days_caption: &'static str,
    pub col_day: &'static str,
    pub col_reached: &'static str,
    pub col_goal_rate: &'static str,
    pub days_legend_visits: &'static str,
    pub days_legend_goal: &'static str,
    // 7. Export.
    pub export: &'static str,
    pub export_note: &'static str,
    /// A section whose report took too long.
    pub slow: &'static str,
    // A new class room.
    pub new_room: &'static str,
    pub new_room_note: &'static str,
    pub new_room_size: &'static str,
    pub new_room_create: &'static str,
}

/// Everything the insights' pages say in one language (one file each).
pub struct Language {
    /// `/insights`.
    pub page: &'static Words,
    /// The tools' names, in [`Tool::ALL`]'s order.
    pub tools: &'static [&'static str; Tool::ALL.len()],
    /// `/insights/room/CODE`.
    pub room: &'static RoomWords,
    /// The notices (`notice`).
    pub notice: &'static NoticeWords,
    /// The shell's own words.
    pub shell: &'static ShellWords,
    /// A date: `{y}`, `{m}`, `{d}`, or `{mm}`, `{dd}` in two digits.
    pub date: &'static str,
}

/// Everything the insights' pages say in `lang`.
pub fn language(lang: Lang) -> &'static Language {
    match lang {
        Lang::En => &en::LANGUAGE,
        Lang::Pt => &pt::LANGUAGE,
        Lang::Zh => &zh::LANGUAGE,
    }
}

/// The page's words in `lang`.
pub fn words(lang: Lang) -> &'static Words {
    language(lang).page
}

/// A tool's name in `lang`.
pub fn tool(lang: Lang, tool: Tool) -> &'static str {
    Tool::ALL
        .iter()
        .position(|&t| t == tool)
        .and_then(|i| language(lang).tools.get(i))
        .copied()
        .unwrap_or(tool.code())
}

/// The notices' words.
pub struct NoticeWords {
    pub private_title: &'static str,
    pub private: &'static str,
    pub private_how: &'static str,
    pub room_title: &'static str,
    /// `{room}`, `{size}`.
    pub room_ready: &'static str,
    pub room_link: &'static str,
    pub room_view: &'static str,
    /// The same two for lesson 2 (`/two?room=`, the view's `?lesson=2`).
    pub room_link_two: &'static str,
    pub room_view_two: &'static str,
    pub room_back: &'static str,
}

/// The shell's own words.
#[derive(Serialize)]
pub struct ShellWords {
    pub skip: &'static str,
    pub language: &'static str,
}

/// The civil date (UTC) of a day counted from 1970-01-01: (year, month, day),
/// by Howard Hinnant's `civil_from_days`.
pub fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A day as `lang` writes a date: `2026-12-02`, `02/12/2026`, `2026年12月2日`.
pub fn date(lang: Lang, days: i64) -> String {
    let (y, m, d) = civil(days);
    let (y, m, d, mm, dd) = (
        y.to_string(),
        m.to_string(),
        d.to_string(),
        format!("{m:02}"),
        format!("{d:02}"),
    );
    fill(
        language(lang).date,
        &[("y", &y), ("m", &m), ("d", &d), ("mm", &mm), ("dd", &dd)],
    )
}

/// A day as a CSV cell: `2026-12-02`.
pub fn iso_date(days: i64) -> String {
    date(Lang::En, days)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_in_each_language() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(-1), (1969, 12, 31));
        assert_eq!(civil(20_424), (2025, 12, 2));
        assert_eq!(civil(11_016), (2000, 2, 29));
        assert_eq!(date(Lang::En, 20_424), "2025-12-02");
        assert_eq!(date(Lang::Pt, 20_424), "02/12/2025");
        assert_eq!(date(Lang::Zh, 20_424), "2025年12月2日");
    }

    #[test]
    fn every_tool_has_a_name_in_every_language() {
        for lang in Lang::ALL {
            let names: Vec<&str> = Tool::ALL.iter().map(|&t| tool(lang, t)).collect();
            for (t, name) in Tool::ALL.iter().zip(&names) {
                assert_ne!(*name, t.code(), "{lang:?}");
            }
            let mut unique = names.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), names.len(), "{lang:?}");
        }
    }

    #[test]
    fn templates_keep_their_placeholders_in_every_language() {
        for lang in Lang::ALL {
            let w = words(lang);
            for (text, names) in [
                (w.last_days, &["{n}"][..]),
                (w.in_room, &["{room}"]),
                (
                    w.scope,
                    &["{lesson}", "{period}", "{language}", "{room}", "{visits}"],
                ),
                (w.steps[2], &["{rung}"]),
                (w.steps[5], &["{goal}"]),
                (w.effort_note, &["{goal}"]),
                (w.goal_island, &["{goal}"]),
                (w.bands[0], &["{a}"]),
                (w.bands[1], &["{a}", "{b}"]),
                (w.bands[2], &["{b}", "{c}"]),
                (w.bands[3], &["{c}"]),
                (w.percent, &["{n}"]),
                (w.ms, &["{n}"]),
                (w.medians, &["{attempts}", "{minutes}", "{n}"]),
                (w.bin, &["{from}", "{to}"]),
                (w.bin_open, &["{from}"]),
                (w.stuck_note, &["{cap}"]),
                (w.stuck_summary, &["{stuck}", "{arrived}"]),
                (w.zoomed, &["{zoom}"]),
                (w.offline_share, &["{share}", "{n}", "{total}"]),
            ] {
                for name in names {
                    assert!(text.contains(name), "{lang:?}: {text} lacks {name}");
                }
            }
        }
    }
}
