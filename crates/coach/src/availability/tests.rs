//! The checks' answers read as the router and OpenAI-compatible servers send
//! them, and the catalog's rules: who is callable, in which languages, and
//! when a model is checked again.

use super::*;
use crate::registry::Registry;

/// The router's `GET /v1/models/{id}` of 2026 (hub-docs, `hub-api.md`).
const ROUTER_MODEL: &str = r#"{
  "id": "meta-llama/Llama-3.1-8B-Instruct", "object": "model", "created": 1721260800,
  "owned_by": "meta-llama",
  "providers": [
    {"provider": "nscale", "status": "live", "context_length": 131072,
     "pricing": {"input": 0.06, "output": 0.06}, "first_token_latency_ms": 310, "throughput": 88.1},
    {"provider": "scaleway", "status": "error", "pricing": {"input": 0.2, "output": 0.2}},
    {"provider": "cerebras", "status": "error"}
  ]
}"#;

fn spec(toml: &str) -> ModelSpec {
    Registry::parse(toml).unwrap().models.remove(0)
}

fn hf(model: &str, languages: &str) -> ModelSpec {
    spec(&format!(
        "[[models]]\nalias = \"m\"\nmodel = \"{model}\"\napi = \"chat\"\n{languages}"
    ))
}

#[test]
fn the_routers_providers_decide_and_a_pinned_one_alone_counts() {
    let Some(Availability::Live { providers }) = model_info(200, ROUTER_MODEL, None) else {
        panic!("nscale is live");
    };
    assert_eq!(providers.len(), 3);
    assert_eq!(
        providers[0].pricing,
        Some(Pricing {
            input: 0.06,
            output: 0.06
        })
    );
    assert!(model_info(200, ROUTER_MODEL, Some("nscale"))
        .unwrap()
        .is_served());
    let Some(Availability::NotServed { why, .. }) = model_info(200, ROUTER_MODEL, Some("scaleway"))
    else {
        panic!("pinned to a provider in error");
    };
    assert!(
        why.contains("scaleway") && why.contains("not live"),
        "{why}"
    );
    let Some(Availability::NotServed { why, .. }) = model_info(200, ROUTER_MODEL, Some("groq"))
    else {
        panic!("pinned to a provider that has not the model");
    };
    assert!(why.contains("groq"), "{why}");
    let all_down = ROUTER_MODEL.replace("\"live\"", "\"error\"");
    let Some(Availability::NotServed { why, .. }) = model_info(200, &all_down, None) else {
        panic!("no live provider");
    };
    assert!(
        why.contains("no live provider") && why.contains("nscale"),
        "{why}"
    );
    // Wrapped in `data`, as some mirrors answer.
    let wrapped = format!(r#"{{"data": {ROUTER_MODEL}}}"#);
    assert!(model_info(200, &wrapped, None).unwrap().is_served());
}

#[test]
fn an_openai_server_answers_for_a_model_it_serves_and_the_list_decides_a_404() {
    let served = r#"{"id": "qwen2.5:7b-instruct", "object": "model", "owned_by": "library"}"#;
    assert_eq!(
        model_info(200, served, None),
        Some(Availability::Live {
            providers: Vec::new()
        })
    );
    for ask_the_list in [404, 405, 501] {
        assert_eq!(model_info(ask_the_list, "", None), None);
    }
    // Anything else says nothing: the model stays callable.
    for unknown in [401, 500, 503] {
        assert!(matches!(
            model_info(unknown, "", None),
            Some(Availability::Unknown { .. })
        ));
    }
    assert!(matches!(
        model_info(200, "<html>", None),
        Some(Availability::Unknown { .. })
    ));
}

#[test]
fn the_list_names_what_it_serves_when_the_model_is_not_there() {
    let list = r#"{"object": "list", "data": [
        {"id": "SmolLM2-135M-Instruct.Q4_1.gguf", "object": "model"},
        {"id": "other", "object": "model"}]}"#;
    assert!(model_list(200, list, "other", None).is_served());
    let Availability::NotServed { why, .. } =
        model_list(200, list, "HuggingFaceTB/SmolLM2-135M-Instruct", None)
    else {
        panic!("not listed");
    };
    assert!(
        why.contains("2 models") && why.contains("SmolLM2-135M-Instruct.Q4_1.gguf"),
        "{why}"
    );
    // Neither path answered: nothing is known, the model stays callable.
    for (status, body) in [(404, ""), (200, "{}"), (0, ""), (200, "[1,2]")] {
        assert!(matches!(
            model_list(status, body, "m", None),
            Availability::Unknown { .. }
        ));
    }
}

#[test]
fn a_cards_languages_are_read_as_the_coach_speaks_them() {
    let card = |language: &str| format!(r#"{{"id": "x", "cardData": {{"language": {language}}}}}"#);
    assert_eq!(card_languages(200, &card(r#""en""#)), Some(vec![Lang::En]));
    assert_eq!(
        card_languages(200, &card(r#"["en", "pt-BR", "fr", "pt"]"#)),
        Some(vec![Lang::En, Lang::Pt])
    );
    assert_eq!(
        card_languages(200, &card(r#"["multilingual"]"#)),
        Some(Lang::ALL.to_vec())
    );
    assert_eq!(card_languages(200, &card(r#"["fr", "de"]"#)), Some(vec![]));
    // A card that says nothing, or no card: not known.
    assert_eq!(card_languages(200, r#"{"id": "x", "cardData": {}}"#), None);
    assert_eq!(card_languages(200, r#"{"id": "x"}"#), None);
    assert_eq!(card_languages(404, &card(r#""en""#)), None);
}

#[test]
fn a_hugging_face_suffix_is_a_policy_or_a_provider_and_elsewhere_the_ids_own() {
    assert_eq!(
        hf("meta-llama/Llama-3.1-8B-Instruct:cheapest", "").checked_id(),
        ("meta-llama/Llama-3.1-8B-Instruct", None)
    );
    assert_eq!(
        hf("meta-llama/Llama-3.1-8B-Instruct:nscale", "").checked_id(),
        ("meta-llama/Llama-3.1-8B-Instruct", Some("nscale"))
    );
    let ollama = spec("[[models]]\nalias = \"m\"\nmodel = \"qwen2.5:7b-instruct\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:11434/v1\"\n");
    assert_eq!(ollama.checked_id(), ("qwen2.5:7b-instruct", None));
}

#[tokio::test(start_paused = true)]
async fn a_model_not_served_is_not_callable_until_a_check_finds_it_served() {
    let m = hf("org/m", "");
    let mut catalog = Catalog::default();
    assert!(catalog.is_served(&m) && catalog.is_due(&m, Instant::now()));
    let not_served = Check {
        availability: model_info(200, &ROUTER_MODEL.replace("\"live\"", "\"error\""), None)
            .unwrap(),
        card: None,
    };
    catalog.record(&m, not_served, Instant::now());
    assert!(!catalog.is_served(&m));
    assert!(!catalog.is_due(&m, Instant::now()));
    tokio::time::advance(RECHECK).await;
    assert!(catalog.is_due(&m, Instant::now()), "checked again hourly");
    catalog.record(&m, Check::unknown("timed out"), Instant::now());
    assert!(catalog.is_served(&m), "a guess never takes a model away");
    // Another model id under the same alias (a reload) is checked afresh.
    let other = hf("org/other", "");
    assert!(catalog.is_due(&other, Instant::now()) && catalog.is_served(&other));
    catalog.all_due(Instant::now());
    assert!(catalog.is_due(&m, Instant::now()));
}

#[tokio::test(start_paused = true)]
async fn the_card_narrows_the_languages_only_where_the_registry_says_nothing() {
    let card = Check {
        availability: Availability::Live {
            providers: Vec::new(),
        },
        card: Some(vec![Lang::En]),
    };
    let mut catalog = Catalog::default();
    let unsaid = hf("HuggingFaceTB/SmolLM2-135M-Instruct", "");
    assert_eq!(catalog.languages(&unsaid).1, LanguagesFrom::Default);
    catalog.record(&unsaid, card.clone(), Instant::now());
    assert_eq!(
        catalog.languages(&unsaid),
        (&[Lang::En][..], LanguagesFrom::Card)
    );
    assert!(catalog.speaks(&unsaid, Lang::En) && !catalog.speaks(&unsaid, Lang::Pt));
    let said = hf(
        "HuggingFaceTB/SmolLM2-135M-Instruct",
        "languages = [\"en\", \"pt\"]",
    );
    catalog.record(&said, card, Instant::now());
    assert_eq!(
        catalog.languages(&said),
        (&[Lang::En, Lang::Pt][..], LanguagesFrom::Registry)
    );
}
