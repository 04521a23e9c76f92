//! The server's `/two`: the link's point, its notices, the markup the
//! controller finds, the words in three languages.

use super::{markup, words::two_words};
use crate::page::i18n::texts;
use vocabulary::Lang;

fn link<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
    move |key| {
        pairs
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.to_string())
    }
}

#[test]
fn a_link_names_the_point_in_a_point_or_the_pages_comma() {
    let w = two_words(Lang::Pt);
    let (p, notices) = markup::read_link(
        link(&[("w1", "0,1861"), ("w2", "-10"), ("b", "3.6")]),
        w,
        texts(Lang::Pt),
    );
    assert_eq!(p, [0.1861, -10.0, 3.6]);
    assert!(notices.is_empty(), "{notices:?}");
    let (p, _) = markup::read_link(link(&[]), w, texts(Lang::Pt));
    assert_eq!(p, [0.1, 0.0, 150.0], "Jay's start");
}

#[test]
fn what_a_link_gets_wrong_is_said_and_shown_back_safely() {
    let w = two_words(Lang::En);
    let (p, notices) = markup::read_link(
        link(&[
            ("w1", "<script>alert(1)</script>"),
            ("w2", "9999"),
            ("b", "NaN"),
        ]),
        w,
        texts(Lang::En),
    );
    assert_eq!(p, [0.1, 200.0, 150.0], "start, clamped, start");
    assert_eq!(notices.len(), 3);
    assert!(
        notices[0].contains("&lt;script&gt;") && !notices[0].contains("<script"),
        "{}",
        notices[0]
    );
    assert!(
        notices[1].contains("w2=9999") && notices[1].contains("using 200"),
        "{}",
        notices[1]
    );
}

#[test]
fn the_page_holds_every_element_the_controller_updates() {
    for lang in Lang::ALL {
        let page = markup::page(two_words(lang), texts(lang), false, [0.1, 0.0, 150.0], &[]);
        for id in [
            "w1",
            "w1-number",
            "w2",
            "w2-number",
            "b",
            "b-number",
            "best-bias",
            "start-over",
            "two-error",
            "two-status",
            "two-score",
            "two-best",
            "rung-0",
            "rung-5",
            "two-line-0",
            "two-line-2",
            "two-marker",
            "two-trail",
            "two-map",
            "strip-best",
            "strip-now",
            "strip-cost",
            "dg-w1",
            "dg-out",
            "pred-0",
            "res-9",
            "view-near",
            "two-answer",
            "view-all",
            "lang-en",
        ] {
            assert!(
                page.contains(&format!(r#"id="{id}""#)),
                "{lang:?}: no #{id}"
            );
        }
        // The embed keeps the controls and the numbers, not the map.
        let embed = markup::page(two_words(lang), texts(lang), true, [0.1, 0.0, 150.0], &[]);
        assert!(embed.contains(r#"id="two-error""#) && !embed.contains(r#"id="two-map""#));
        assert!(embed.contains(&format!(r#"href="/two?lang={}""#, lang.code())));
    }
}

#[test]
fn the_first_render_is_the_lessons_numbers() {
    let en = markup::page(
        two_words(Lang::En),
        texts(Lang::En),
        false,
        [0.1, 0.0, 150.0],
        &[],
    );
    assert!(en.contains(">3,431.91<"), "the start's error");
    assert!(en.contains("2,011.91 to go to get below 1,420."));
    let goal = markup::page(
        two_words(Lang::Pt),
        texts(Lang::Pt),
        false,
        [0.1861, -10.0, 3.6],
        &[],
    );
    assert!(goal.contains(">1.406,05<") && goal.contains("score success"));
    assert!(
        goal.contains(r#"<li class="reached" id="rung-5">"#),
        "the floor at its printed value"
    );
}
