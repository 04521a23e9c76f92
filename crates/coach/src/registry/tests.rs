//! The registry file: defaults, validation, and the errors it names.

use std::time::Duration;

use super::*;

#[test]
fn the_default_file_in_the_repository_is_valid() {
    let registry = Registry::parse(include_str!("../../../../models.toml")).unwrap();
    assert!(registry.models.len() >= 4);
    assert!(registry.models.iter().all(|m| m.model.contains('/')));
    assert_eq!(registry.deadline, Duration::from_secs(8));
    // Chat on the router only (its text-generation path is gone), each model
    // in the languages it writes well: Llama 3.1 and a 2B model write no Chinese.
    for m in &registry.models {
        assert!(
            matches!(m.api, Api::Chat) && m.is_hugging_face(),
            "{}",
            m.alias
        );
        assert!(m.languages_given, "{}: languages set", m.alias);
    }
    assert!(!registry.get("llama").unwrap().speaks(Lang::Zh));
    assert_eq!(registry.get("gemma").unwrap().languages, vec![Lang::En]);
    for retired in [
        "Qwen/Qwen2.5-7B-Instruct",
        "microsoft/Phi-3.5-mini-instruct",
    ] {
        assert!(
            registry.models.iter().all(|m| m.model != retired),
            "{retired}"
        );
    }
}

#[test]
fn text_generation_needs_its_own_server_and_a_suffix_is_checked() {
    let text = |base: &str, model: &str| {
        Registry::parse(&format!("[[models]]\nalias = \"tg\"\nmodel = \"{model}\"\napi = \"text-generation\"\n{base}template = \"{{{{ messages }}}}\"\n"))
    };
    let e = text("", "m/p").unwrap_err().to_string();
    assert!(e.contains("base_url") && e.contains("TGI"), "{e}");
    assert!(text("base_url = \"http://127.0.0.1:8080/generate\"\n", "m/p").is_ok());
    let e = text(
        "base_url = \"http://127.0.0.1:8080/models/{model}\"\n",
        "m/p:nscale",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("URL"), "{e}");
    let chat = |model: &str, base: &str| {
        Registry::parse(&format!(
            "[[models]]\nalias = \"c\"\nmodel = \"{model}\"\napi = \"chat\"\n{base}"
        ))
    };
    for fine in ["org/m:cheapest", "org/m:nscale", "org/m:featherless-ai"] {
        assert!(chat(fine, "").is_ok(), "{fine}");
    }
    let e = chat("org/m:Not A Provider", "").unwrap_err().to_string();
    assert!(e.contains("routing policy"), "{e}");
    // Ollama's ids are their own.
    assert!(chat("qwen2.5:7B", "base_url = \"http://127.0.0.1:11434/v1\"\n").is_ok());
}

#[test]
fn defaults_fill_what_is_left_out() {
    let r = Registry::parse(
        "[[models]]\nalias = \"q\"\nmodel = \"Qwen/Qwen2.5-7B-Instruct\"\napi = \"chat\"\n",
    )
    .unwrap();
    let m = &r.models[0];
    assert_eq!(
        (m.max_new_tokens, m.temperature, m.enabled),
        (70, 0.5, true)
    );
    assert_eq!(m.max_concurrency, None, "no limit of its own");
    assert_eq!(
        m.endpoint().as_str(),
        "https://router.huggingface.co/v1/chat/completions"
    );
    assert!(!m.is_local());
}

#[test]
fn errors_name_the_model_and_the_key() {
    let err = |toml: &str| Registry::parse(toml).unwrap_err().to_string();
    let e =
        err("[[models]]\nalias = \"phi\"\nmodel = \"m/p\"\napi = \"chat\"\ntemperature = 9.0\n");
    assert!(e.contains("\"phi\"") && e.contains("temperature"), "{e}");
    let e = err("[[models]]\nalias = \"tg\"\nmodel = \"m/p\"\napi = \"text-generation\"\n");
    assert!(e.contains("\"tg\"") && e.contains("template"), "{e}");
    let e = err("[[models]]\nalias = \"tg\"\nmodel = \"m/p\"\napi = \"text-generation\"\ntemplate = \"{% if %}\"\n");
    assert!(e.contains("\"tg\"") && e.contains("template"), "{e}");
    let e = err("[[models]]\nalias = \"x\"\nmodel = \"m/p\"\napi = \"chat\"\ncolour = 1\n");
    assert!(e.contains("colour"), "{e}");
    let e = err("[[models]]\nalias = \"x\"\nmodel = \"m/p\"\napi = \"grpc\"\n");
    assert!(e.contains("api") || e.contains("grpc"), "{e}");
    let twice = "[[models]]\nalias = \"x\"\nmodel = \"m/p\"\napi = \"chat\"\n";
    let e = err(&format!("{twice}{twice}"));
    assert!(e.contains("\"x\"") && e.contains("alias"), "{e}");
}

#[test]
fn the_strategy_is_chosen_by_name() {
    let r = Registry::parse("strategy = \"seed\"\nhalf_life_s = 600\n").unwrap();
    assert_eq!(
        (r.strategy, r.half_life),
        (StrategyKind::Seed, Duration::from_secs(600))
    );
    let defaults = Registry::parse("").unwrap();
    assert_eq!(
        (defaults.strategy, defaults.half_life),
        (StrategyKind::Thompson, Duration::from_secs(60))
    );
    assert_eq!(defaults.hedging(), None, "hedging is off by default");
    assert_eq!(
        Registry::parse("hedge = true\nhedge_ratio = 0.05\n")
            .unwrap()
            .hedging(),
        Some(0.05)
    );
    let e = Registry::parse("hedge_ratio = 1.5\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("hedge_ratio"), "{e}");
    let e = Registry::parse("strategy = \"magic\"\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("strategy"), "{e}");
    let e = Registry::parse("half_life_s = 1\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("half_life_s"), "{e}");
}

#[test]
fn token_env_must_be_a_variable_name() {
    for bad in ["", "1KEY", "MY-KEY", "KEY NAME", "$KEY", "KEY=x", "ключ"] {
        let toml = format!(
            "[[models]]\nalias = \"ext\"\nmodel = \"m/m\"\napi = \"chat\"\ntoken_env = \"{bad}\"\n"
        );
        let e = Registry::parse(&toml).unwrap_err().to_string();
        assert!(
            e.contains("\"ext\"") && e.contains("token_env"),
            "{bad:?}: {e}"
        );
    }
    for secret in [
        "HF_TOKEN",
        "JAY_DATABASE_URL",
        "JAY_INSIGHTS_TOKEN",
        "JAY_MODELS_TOKEN",
    ] {
        let toml = format!(
            "[[models]]\nalias = \"ext\"\nmodel = \"m/m\"\napi = \"chat\"\nbase_url = \"https://llm.example/v1\"\ntoken_env = \"{secret}\"\n"
        );
        let e = Registry::parse(&toml).unwrap_err().to_string();
        assert!(
            e.contains("token_env") && e.contains("the server's own secrets"),
            "{secret}: {e}"
        );
    }
    for good in ["OPENAI_API_KEY", "_K", "k2"] {
        let toml = format!(
            "[[models]]\nalias = \"a\"\nmodel = \"m/m\"\napi = \"chat\"\ntoken_env = \"{good}\"\n"
        );
        assert!(Registry::parse(&toml).unwrap().models[0]
            .token_env
            .is_some());
    }
    let e = Registry::parse(
        "[[models]]\nalias = \"u\"\nmodel = \"m/m\"\napi = \"chat\"\nbase_url = \"http://\"\n",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("\"u\"") && e.contains("base_url"), "{e}");
}

#[test]
fn a_template_is_compiled_once_at_load_and_a_typo_stops_it() {
    let model = |template: &str| {
        format!("[[models]]\nalias = \"tg\"\nmodel = \"m/p\"\napi = \"text-generation\"\nbase_url = \"http://127.0.0.1:8080/generate\"\ntemplate = \"{template}\"\n")
    };
    let ok = Registry::parse(&model("{% for m in messages %}{{ m.content }}{% endfor %}")).unwrap();
    assert!(matches!(ok.models[0].api, Api::TextGeneration { .. }));
    let e = Registry::parse(&model("{% for m in messages %}{{ m.contnet }}{% endfor %}"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("\"tg\"") && e.contains("template"), "{e}");
}

/// A key shorter than 8 characters (vLLM's documented `EMPTY`, a dummy `1`)
/// would be blanked out of every answer wherever those letters appear, so
/// it stops the registry, naming the model and the variable, never the value.
#[test]
fn a_key_shorter_than_8_characters_stops_the_registry() {
    let toml = "[[models]]\nalias = \"vllm\"\nmodel = \"m/p\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:8000/v1\"\ntoken_env = \"VLLM_KEY\"\n";
    for short in ["EMPTY", "1", " abcdefg "] {
        let e = Registry::parse_with_env(toml, |_| Some(short.to_string()))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("\"vllm\"") && e.contains("token_env") && e.contains("VLLM_KEY"),
            "{e}"
        );
        assert!(e.contains("8 characters"), "{e}");
        assert!(!e.contains(short.trim()), "the value is never shown: {e}");
    }
    let ok = Registry::parse_with_env(toml, |_| Some("abcdefgh".to_string())).unwrap();
    assert_eq!(
        ok.models[0].key.as_ref().map(Secret::expose),
        Some("abcdefgh")
    );
    // Unset, the model is skipped as before (not an error).
    assert!(Registry::parse_with_env(toml, |_| None).unwrap().models[0]
        .key
        .is_none());
}

/// A server that queues gets its own limit of calls at once.
#[test]
fn max_concurrency_is_read_and_checked() {
    let local = "[[models]]\nalias = \"l\"\nmodel = \"smollm2\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:8080/v1\"\n";
    let r = Registry::parse(&format!("{local}max_concurrency = 1\n")).unwrap();
    assert_eq!(r.models[0].max_concurrency, Some(1));
    for bad in ["0", "257"] {
        let e = Registry::parse(&format!("{local}max_concurrency = {bad}\n"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"l\"") && e.contains("max_concurrency"), "{e}");
    }
}

/// A model the operator measured to write only English is asked only in it.
#[test]
fn languages_are_read_and_checked() {
    let local = "[[models]]\nalias = \"l\"\nmodel = \"smollm2\"\napi = \"chat\"\nbase_url = \"http://127.0.0.1:8080/v1\"\n";
    assert_eq!(
        Registry::parse(local).unwrap().models[0].languages,
        Lang::ALL,
        "all by default"
    );
    let r = Registry::parse(&format!("{local}languages = [\"en\", \"pt-BR\"]\n")).unwrap();
    assert_eq!(r.models[0].languages, [Lang::En, Lang::Pt]);
    assert!(r.models[0].speaks(Lang::Pt) && !r.models[0].speaks(Lang::Zh));
    for (bad, says) in [
        ("[]", "at least one"),
        ("[\"fr\"]", "\"fr\" is not one of"),
        ("[\"en\", \"EN\"]", "listed twice"),
    ] {
        let e = Registry::parse(&format!("{local}languages = {bad}\n"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("\"l\"") && e.contains("languages") && e.contains(says),
            "{e}"
        );
    }
}
