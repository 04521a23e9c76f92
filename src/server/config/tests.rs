//! Configuration from the environment: defaults, each variable's checks, and secrets that never print.

use super::*;

fn fallback() -> SocketAddr {
    "127.0.0.1:3000".parse().unwrap()
}

#[test]
fn without_port_the_leptos_address_is_used() {
    assert_eq!(resolve_addr(None, None, fallback()).unwrap(), fallback());
    assert_eq!(
        resolve_addr(Some(" "), Some("::1"), fallback()).unwrap(),
        fallback()
    );
}

#[test]
fn port_listens_on_every_interface_unless_host_says_otherwise() {
    assert_eq!(
        resolve_addr(Some("7860"), None, fallback()).unwrap(),
        "0.0.0.0:7860".parse().unwrap()
    );
    assert_eq!(
        resolve_addr(Some("8080"), Some("127.0.0.1"), fallback()).unwrap(),
        "127.0.0.1:8080".parse().unwrap()
    );
}

fn guard(vars: &[(&str, &str)]) -> Result<Guard, ConfigError> {
    Guard::from_vars(|name| {
        vars.iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.to_string())
    })
}

#[test]
fn the_guard_has_documented_defaults_and_reads_its_variables() {
    let d = guard(&[]).unwrap();
    assert_eq!(
        (d.rate_per_min, d.rate_burst, d.trusted_proxy_hops),
        (20, 5, 0)
    );
    assert_eq!((d.upstream_concurrency, d.upstream_daily_budget), (8, 50));
    assert_eq!(d.upstream_daily_per_client, None, "derived from the day");
    assert_eq!((d.cors_origins, d.frame_ancestors.as_str()), (None, "*"));
    assert!(d.models_token.is_none());
    assert_eq!(d.default_lang, Lang::En);
    let g = guard(&[
        ("JAY_DEFAULT_LANG", "pt"),
        ("JAY_RATE_PER_MIN", "60"),
        ("JAY_TRUSTED_PROXY_HOPS", "1"),
        (
            "JAY_CORS_ORIGINS",
            "https://a.example, http://localhost:8080/",
        ),
        ("JAY_FRAME_ANCESTORS", "'self' https://blog.example"),
        ("JAY_MODELS_TOKEN", "s3cret-models"),
        ("JAY_UPSTREAM_DAILY_PER_CLIENT", " 250 "),
        ("JAY_VISITS_PER_HOUR", "120"),
    ])
    .unwrap();
    assert_eq!(g.upstream_daily_per_client, Some(250));
    assert_eq!((g.rate_per_min, g.trusted_proxy_hops), (60, 1));
    assert_eq!(
        g.cors_origins.unwrap(),
        vec!["https://a.example", "http://localhost:8080"]
    );
    assert_eq!(g.frame_ancestors, "'self' https://blog.example");
    assert_eq!(g.models_token.unwrap().expose(), "s3cret-models");
    assert_eq!((d.visits_per_hour, g.visits_per_hour), (60, 120));
    assert_eq!(g.default_lang, Lang::Pt);
}

#[test]
fn a_bad_guard_variable_is_named() {
    for (name, value) in [
        ("JAY_RATE_PER_MIN", "0"),
        ("JAY_RATE_BURST", "lots"),
        ("JAY_UPSTREAM_CONCURRENCY", "-1"),
        ("JAY_UPSTREAM_DAILY_PER_CLIENT", "0"),
        ("JAY_UPSTREAM_DAILY_PER_CLIENT", "lots"),
        ("JAY_CORS_ORIGINS", "blog.example"),
        ("JAY_FRAME_ANCESTORS", "https://x.example; script-src *"),
        ("JAY_DEFAULT_LANG", "fr"),
    ] {
        let e = guard(&[(name, value)]).unwrap_err().to_string();
        assert!(e.contains(name), "{e}");
    }
}

#[test]
fn bad_values_are_named_in_the_error() {
    let err = resolve_addr(Some("70000"), None, fallback()).unwrap_err();
    assert!(err.to_string().contains("PORT") && err.to_string().contains("70000"));
    let err = resolve_addr(Some("80"), Some("example.com"), fallback()).unwrap_err();
    assert!(err.to_string().contains("HOST"));
}

/// A short `HF_TOKEN` would be blanked out of every answer wherever those
/// letters appear: a configuration error naming the variable, not its value.
#[test]
fn an_hf_token_shorter_than_8_characters_is_refused_at_start_up() {
    for short in ["hf", "abc1234", " x "] {
        let e = hf_token_from(Some(short.to_string()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("HF_TOKEN") && e.contains("8 characters"), "{e}");
        assert!(!e.contains(short.trim()), "{e}");
    }
    assert!(hf_token_from(None).unwrap().is_none());
    assert!(
        hf_token_from(Some("  ".into())).unwrap().is_none(),
        "blank: unset"
    );
    assert_eq!(
        hf_token_from(Some("hf_abcdefgh".into()))
            .unwrap()
            .map(|s| s.expose().to_string()),
        Some("hf_abcdefgh".into())
    );
}

#[test]
fn a_bad_insights_variable_stops_start_up_naming_it_and_the_way_out() {
    let var = |name: &str| (name == "JAY_INSIGHTS_DAYS").then(|| "0".to_string());
    let e = ConfigError::from(
        InsightsConfig::from_vars(var, std::path::Path::new("data")).expect_err("0 days"),
    );
    let message = e.to_string();
    assert!(message.contains("JAY_INSIGHTS_DAYS"), "{message}");
    assert!(message.contains("JAY_INSIGHTS=off"), "{message}");
}

#[test]
fn both_tokens_are_read_checked_and_never_shown() {
    assert!(guard(&[]).unwrap().insights_token.is_none());
    assert!(guard(&[("JAY_INSIGHTS_TOKEN", "  ")])
        .unwrap()
        .insights_token
        .is_none());
    let g = guard(&[("JAY_INSIGHTS_TOKEN", " teach-3rd-grade ")]).unwrap();
    assert_eq!(g.insights_token.unwrap().expose(), "teach-3rd-grade");
    let g = guard(&[("JAY_MODELS_TOKEN", "ops-0123456789")]).unwrap();
    assert_eq!(g.models_token.unwrap().expose(), "ops-0123456789");
    for name in ["JAY_INSIGHTS_TOKEN", "JAY_MODELS_TOKEN"] {
        for bad in [
            "x",
            "short7!",
            "two words here",
            "naïve-password",
            &"x".repeat(257),
        ] {
            let e = guard(&[(name, bad)]).expect_err(bad).to_string();
            assert!(e.starts_with(&format!("{name} must be 8 to 256")), "{e}");
            assert!(!e.contains(bad), "{e}");
        }
    }
}
