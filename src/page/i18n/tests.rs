//! The three languages: every text filled, templates that fill, and the language a request gets.

use super::*;
use vocabulary::fill;

#[test]
fn the_language_comes_from_the_link_then_the_browser_then_english() {
    assert_eq!(negotiate(Some("pt-BR"), Some("zh-CN")), Lang::Pt);
    assert_eq!(negotiate(Some("fr"), Some("zh-CN,zh;q=0.9")), Lang::Zh);
    assert_eq!(negotiate(None, Some("de, fr")), Lang::En);
    assert_eq!(negotiate(None, None), Lang::En);
    assert_eq!(Lang::Zh.html_tag(), "zh-CN");
}

#[test]
fn every_language_fills_the_same_placeholders() {
    // Field by field: a translation that drops or misspells a placeholder
    // would print `{n}` or lose a number.
    let placeholders = |s: &str| {
        let mut names: Vec<String> = s
            .split('{')
            .skip(1)
            .filter_map(|rest| rest.split_once('}').map(|(n, _)| n.to_string()))
            .collect();
        names.sort();
        names
    };
    for lang in [Lang::Pt, Lang::Zh] {
        for (english, translated) in all_fields(texts(Lang::En))
            .into_iter()
            .zip(all_fields(texts(lang)))
        {
            assert_eq!(
                placeholders(english),
                placeholders(translated),
                "{lang:?}: {english:?} vs {translated:?}"
            );
            assert!(!translated.is_empty(), "{lang:?}: empty for {english:?}");
        }
    }
}

#[test]
fn texts_are_safe_to_write_into_markup() {
    // The chart, table and introduction write these into HTML strings.
    for lang in Lang::ALL {
        for text in all_fields(texts(lang)) {
            assert!(!text.contains(['<', '>', '&', '"']), "{lang:?}: {text:?}");
        }
    }
}

#[test]
fn fill_replaces_every_placeholder() {
    assert_eq!(
        fill("{n} of {n}: {x}", &[("n", "3"), ("x", "ok")]),
        "3 of 3: ok"
    );
}

/// Phrases a native reader flagged on the page (visitor walk of 1 December
/// 2026, finding 9): never back, in the page's words or the offline coach's.
#[test]
fn portuguese_reads_as_written_in_brazil() {
    let pt = texts(Lang::Pt);
    let mut said: Vec<&str> = all_fields(pt);
    let book = coach::offline::phrasebook::phrasebook(Lang::Pt);
    for situation in coach::offline::phrasebook::Situation::all() {
        said.extend(book.phrases(situation));
    }
    for text in said {
        for wrong in [
            "na mão",
            "cruas",
            "US$ 1000",
            "crua ",
            "veste",
            "offline",
            "comentarista",
        ] {
            assert!(!text.contains(wrong), "{wrong:?} in {text:?}");
        }
    }
    assert_eq!(pt.heading, "Treine um neurônio à mão");
    assert!(
        pt.copy_best.ends_with("minha melhor tentativa"),
        "{}",
        pt.copy_best
    );
    assert_eq!(pt.raw, "originais");
}

#[test]
fn chinese_writes_prices_in_one_unit_and_moves_at_once() {
    let zh = texts(Lang::Zh);
    for text in all_fields(zh) {
        assert!(!text.contains("千美元"), "{text:?}");
    }
    let valley = coach::words::words_for(Lang::Zh).facts.valley_hint;
    assert!(
        valley.contains("同时") && !valley.contains("一起调"),
        "{valley}"
    );
}

#[test]
fn the_bubble_says_who_wrote_a_comment_without_jargon() {
    let jargon = [
        "commentator",
        "model",
        "comentarista",
        "modelo",
        "评论员",
        "模型",
        "offline",
        "离线",
    ];
    for lang in Lang::ALL {
        let t = texts(lang);
        for text in [t.offline, t.offline_resting] {
            for word in jargon {
                assert!(!text.to_lowercase().contains(word), "{lang:?}: {text:?}");
            }
        }
    }
    assert_eq!(texts(Lang::En).copy_best, "Copy a link to my best attempt");
}

fn all_fields(t: &Texts) -> Vec<&'static str> {
    let mut all = vec![
        t.server.title,
        t.server.description,
        t.not_found,
        t.back_home,
        t.language,
        t.heading,
        t.server.intro_lead,
        t.formula,
        t.server.intro_rest,
        t.server.embed_lead,
        t.server.credit,
        t.embed_link,
        t.model_section,
        t.live_section,
        t.landscape_section,
        t.results_section,
        t.weight,
        t.weight_unit,
        t.bias,
        t.bias_unit,
        t.exact_value,
        t.start_over,
        t.one_at_a_time,
        t.best_bias,
        t.best_weight,
        t.house_title,
        t.axis_area,
        t.axis_price,
        t.legend_house,
        t.legend_line,
        t.legend_residual,
        t.legend_best,
        t.squares,
        t.chart_label,
        t.error_label,
        t.goal,
        t.reached,
        t.to_go,
        t.ladder,
        t.rung_below,
        t.rung_goal,
        t.rung_floor,
        t.rung_news,
        t.question,
        t.answer,
        t.fair,
        t.bargain,
        t.too_much,
        t.said_goal,
        t.said,
        t.coach,
        t.waiting,
        t.resting,
        t.offline_resting,
        t.vote_question,
        t.vote_up,
        t.vote_down,
        t.offline,
        t.houses,
        t.houses_note,
        t.col_area,
        t.col_price,
        t.col_prediction,
        t.col_residual,
        t.col_squared,
        t.mean,
        t.attempts_section,
        t.attempts,
        t.no_attempts,
        t.summary_one,
        t.summary_many,
        t.restore,
        t.best_star,
        t.copy_best,
        t.copied,
        t.copy_this,
        t.spark_label,
        t.show_all,
        t.zoom,
        t.marker,
        t.marker_value,
        t.server.landscape_caption,
        t.axis_weight,
        t.axis_bias,
        t.descent,
        t.server.lesson,
        t.standardise,
        t.rate,
        t.run,
        t.step,
        t.play,
        t.pause,
        t.reset,
        t.apply,
        t.no_run,
        t.diverged,
        t.raw,
        t.standardised,
        t.goal_at,
        t.stepped,
        t.few_dozen,
        t.loss_label,
        t.loss_step,
        t.loss_diverged,
        t.link_outside,
        t.link_not_number,
        t.lab_from_start,
        t.lab_from_model,
        t.lab_from_origin,
        t.step100,
        t.server.lab_start_legend,
        t.server.lab_start_origin,
        t.server.lab_start_jays,
        t.server.lab_start_model,
        t.server.lab_preset_legend,
        t.server.lab_preset_raw,
        t.server.lab_preset_jay,
        t.server.jay_hint,
        t.server.standardise_hint,
        t.server.rate_hint,
        t.step10,
        t.lab_ready,
        t.lab_playing,
        t.lab_paused,
        t.lab_stalled,
        t.lab_stalled_raw,
        t.lab_stalled_slow,
        // Nothing lost.
        t.said_start_over,
        t.run_mark,
        // The map.
        t.server.map_click,
        t.server.map_tap,
        t.server.map_keys,
        t.map_legend,
        t.server.map_low,
        t.server.map_high,
        t.server.map_island,
        t.server.map_contours,
        t.server.map_trail,
        t.server.map_best,
        t.server.map_descent,
        t.server.map_marker,
    ];
    all.extend(t.server.score_lines);
    all
}

/// The words only the server writes go into `inner_html`: plain text, no
/// markup of their own (the code adds the tags).
#[test]
fn server_only_words_are_plain_text() {
    for lang in Lang::ALL {
        let w = &texts(lang).server;
        for text in [
            w.intro_lead,
            w.intro_rest,
            w.embed_lead,
            w.credit,
            w.lesson,
            w.standardise_hint,
            w.rate_hint,
            w.lab_start_legend,
            w.lab_start_origin,
            w.lab_start_jays,
            w.lab_start_model,
            w.lab_preset_legend,
            w.lab_preset_raw,
            w.lab_preset_jay,
            w.jay_hint,
            w.landscape_caption,
            w.map_click,
            w.map_tap,
            w.map_keys,
            w.map_low,
            w.map_high,
            w.map_island,
            w.map_contours,
            w.map_trail,
            w.map_best,
            w.map_descent,
            w.map_marker,
        ] {
            assert!(!text.contains(['<', '>', '&']), "{lang:?}: {text}");
        }
    }
}
