//! A model is judged in each language on its own answers there.

use std::sync::Arc;

use super::*;
use crate::{
    providers::fake::{answers, Behaviour, Fake},
    Outcome,
};
use vocabulary::Lang;

use super::test_support::{input_in as input, roomy, visitor};

/// `en_only` writes good English only, `zh_only` good Chinese only (in the
/// other languages their answers are rejected).
fn coach(seed: u64) -> Coach {
    let fake = Fake::default();
    for (alias, lang) in [("en_only", Lang::En), ("zh_only", Lang::Zh)] {
        fake.set(
            alias,
            Behaviour {
                only: Some(lang),
                ..answers(100)
            },
        );
    }
    let models: String = ["en_only", "zh_only"]
        .iter()
        .map(|a| format!("[[models]]\nalias = \"{a}\"\nmodel = \"org/{a}\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\n"))
        .collect();
    Coach::new(
        Registry::parse(&models).unwrap(),
        None,
        Arc::new(fake),
        Some(seed),
    )
    .with_budget(roomy())
}

/// A coach with one chat model, `alias`, that answers "Nice one." after
/// 100 ms (good English, too short to be told from Portuguese); `extra` is
/// more of its registry entry.
fn one_model(alias: &'static str, extra: &str, seed: u64) -> Coach {
    let fake = Fake::default();
    fake.set(alias, answers(100));
    let models = format!("[[models]]\nalias = \"{alias}\"\nmodel = \"org/{alias}\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:9/v1\"\n{extra}");
    Coach::new(
        Registry::parse(&models).unwrap(),
        None,
        Arc::new(fake),
        Some(seed),
    )
}

#[tokio::test(start_paused = true)]
async fn after_40_pt_requests_that_reject_the_english_only_model_40_en_requests_waste_a_handful() {
    let coach = coach(3);
    for i in 0..40 {
        let c = coach.comment(input(i, Lang::Pt), visitor(i)).await;
        assert!(c.fallback, "neither writes Portuguese");
    }
    let mut wasted = 0;
    for i in 0..40 {
        let c = coach
            .comment(input(100 + i, Lang::En), visitor(100 + i))
            .await;
        assert_eq!(c.model, "en_only", "{:?}", c.tried);
        wasted += c.tried.iter().filter(|t| t.model == "zh_only").count();
    }
    assert!(wasted <= 5, "{wasted} calls wasted on zh_only");
    let report = coach.report();
    let en_only = &report[0].by_lang;
    assert_eq!((en_only["en"].calls, en_only["en"].rejections), (40, 0));
    assert!(en_only["pt"].rejections > 0 && en_only["pt"].successes == 0);
    assert!(en_only["en"].success_estimate > 0.9 && en_only["pt"].success_estimate < 0.5);
    assert!(
        en_only["en"].probability > 0.9,
        "{}",
        en_only["en"].probability
    );
}

/// Visitors in English and Chinese in turn. With one record per model (the
/// router simulation's baseline) each model was rejected in the other's language about half the
/// time: 102 wasted calls for 200 requests.
#[tokio::test(start_paused = true)]
async fn with_visitors_in_two_languages_each_model_is_learned_in_its_own() {
    for per_language in [true, false] {
        let coach = coach(4);
        coach.set_per_language(per_language);
        let mut wasted = 0;
        for i in 0..200 {
            let lang = if i % 2 == 0 { Lang::En } else { Lang::Zh };
            let c = coach.comment(input(i, lang), visitor(i)).await;
            assert!(!c.fallback, "{:?}", c.tried);
            wasted += c.tried.iter().filter(|t| t.outcome != Outcome::Ok).count();
        }
        if per_language {
            assert!(wasted <= 12, "{wasted} calls wasted for 200 requests");
        } else {
            assert!(wasted >= 60, "one record per model: {wasted}");
        }
    }
}

/// A model the registry gives `languages = ["en"]` is never asked in
/// another language; forced there, it is refused as `other_language`, not
/// called, and its record there stays empty.
#[tokio::test(start_paused = true)]
async fn a_model_is_asked_only_in_the_languages_the_registry_gives_it() {
    let coach = one_model("small", "languages = [\"en\"]\n", 5);
    for (i, lang) in [Lang::Pt, Lang::Zh, Lang::En].into_iter().enumerate() {
        let c = coach.comment(input(i, lang), visitor(i)).await;
        if lang == Lang::En {
            assert_eq!(c.model, "small", "{:?}", c.tried);
        } else {
            assert!(c.fallback && c.tried.is_empty(), "{lang:?}: {:?}", c.tried);
        }
    }
    let mut forced = input(9, Lang::Zh);
    forced.model = Some("small".into());
    let c = coach.comment(forced, visitor(9)).await;
    assert!(c.fallback);
    assert_eq!(c.tried[0].outcome, Outcome::OtherLanguage);
    let report = coach.report();
    assert_eq!(report[0].languages, [Lang::En]);
    let calls = |lang: &str| report[0].by_lang[lang].calls;
    assert_eq!((calls("en"), calls("pt"), calls("zh")), (1, 0, 0));
}

/// The only model is asked first whatever the language, so `/models` says
/// so: exactly 1, not the 0.9999999999999999 that adding 3/6 + 2/6 + 1/6
/// gives (a caller comparing with 1 would be told otherwise).
#[tokio::test(start_paused = true)]
async fn the_only_model_has_a_probability_of_exactly_one_whatever_the_mix_of_languages() {
    let coach = one_model("only", "", 6);
    // Its one Chinese answer is rejected (the fake writes English), which
    // leaves it still the only model to ask in Chinese.
    let langs = [Lang::En, Lang::En, Lang::En, Lang::Pt, Lang::Pt, Lang::Zh];
    for (i, lang) in langs.into_iter().enumerate() {
        let c = coach.comment(input(i, lang), visitor(i)).await;
        assert_eq!(c.tried[0].model, "only", "{lang:?}: {:?}", c.tried);
    }
    assert_ne!(
        3.0 / 6.0 + 2.0 / 6.0 + 1.0 / 6.0,
        1.0,
        "the case this is about"
    );
    let report = coach.report();
    let calls = |lang: &str| report[0].by_lang[lang].calls;
    assert_eq!((calls("en"), calls("pt"), calls("zh")), (3, 2, 1));
    assert_eq!((report[0].probability, report[0].parcela), (1.0, 1.0));
    assert_eq!(report[0].by_lang["zh"].probability, 1.0);
}
