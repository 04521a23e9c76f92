//! Who reads the insights: without `JAY_INSIGHTS_TOKEN` only this machine
//! (a loopback client that no proxy forwarded), anyone else a `403` page that
//! says how to set it; with a token, its holders, and a client that guesses
//! wrong ten times in a minute waits (`429`), for the insights and for
//! `/models` alike.

use coach::secret::Secret;
use jay_trainer::server::config::Guard;
use reqwest::Client;

use crate::insights::spawn_guarded;

#[tokio::test]
async fn without_a_token_only_this_machine_reads_the_insights() {
    let guard = Guard {
        trusted_proxy_hops: 1,
        ..Guard::default()
    };
    let app = spawn_guarded("", "on", guard).await;
    let client = Client::new();
    for path in [
        "/insights",
        "/insights/funnel.csv",
        "/insights/room/abcd-2345",
        "/insights/room/abcd-2345/now.json",
    ] {
        let url = format!("{}{path}", app.base);
        let here = client.get(&url).send().await.expect("get");
        assert_eq!(here.status().as_u16(), 200, "{path} from this machine");
        for forwarded in ["x-forwarded-for", "forwarded", "x-real-ip"] {
            let proxied = client
                .get(&url)
                .header(forwarded, "203.0.113.9")
                .header("accept-language", "zh-CN")
                .send()
                .await
                .expect("get");
            assert_eq!(proxied.status().as_u16(), 403, "{path} via {forwarded}");
            assert_eq!(proxied.headers()["cache-control"], "no-store");
            let page = proxied.text().await.expect("text");
            assert!(
                page.contains("JAY_INSIGHTS_TOKEN") && page.contains("学习数据不公开"),
                "{page}"
            );
        }
    }
    // The stylesheet stays public (the 403 page uses it).
    let style = client
        .get(format!("{}/insights/style.css", app.base))
        .header("x-forwarded-for", "203.0.113.9")
        .send()
        .await
        .expect("get");
    assert_eq!(style.status().as_u16(), 200);
}

#[tokio::test]
async fn wrong_tokens_are_slowed_after_ten_a_minute() {
    let guard = Guard {
        trusted_proxy_hops: 1,
        insights_token: Secret::new("teach-3rd-grade"),
        models_token: Secret::new("operate-the-models"),
        ..Guard::default()
    };
    let app = spawn_guarded("", "on", guard).await;
    let client = Client::new();
    let ask = |path: &str, token: &str, ip: &'static str| {
        client
            .get(format!("{}{path}", app.base))
            .bearer_auth(token)
            .header("x-forwarded-for", ip)
            .send()
    };
    for i in 0..10 {
        let r = ask("/insights", &format!("guess-{i:04}"), "198.51.100.66")
            .await
            .expect("get");
        assert_eq!(r.status().as_u16(), 401, "guess {i}");
    }
    for (path, token) in [
        ("/insights", "guess-0010"),
        ("/insights", "teach-3rd-grade"),
        ("/models", "operate-the-models"),
    ] {
        let r = ask(path, token, "198.51.100.66").await.expect("get");
        assert_eq!(r.status().as_u16(), 429, "{path} after ten wrong tokens");
        let wait: u64 = r.headers()["retry-after"]
            .to_str()
            .expect("ascii")
            .parse()
            .expect("seconds");
        assert!((1..=60).contains(&wait), "{wait}");
    }
    // Another client is not held up, and the right token works for it.
    let r = ask("/insights", "teach-3rd-grade", "198.51.100.67")
        .await
        .expect("get");
    assert_eq!(r.status().as_u16(), 200);
    // /models counts the same way.
    for i in 0..10 {
        let r = ask("/models", &format!("guess-{i:04}"), "198.51.100.68")
            .await
            .expect("get");
        assert_eq!(r.status().as_u16(), 401, "models guess {i}");
    }
    let r = ask("/insights", "teach-3rd-grade", "198.51.100.68")
        .await
        .expect("get");
    assert_eq!(r.status().as_u16(), 429);
    // A request without a token (a browser's first) is no guess.
    for _ in 0..12 {
        let r = client
            .get(format!("{}/insights", app.base))
            .header("x-forwarded-for", "198.51.100.69")
            .send()
            .await
            .expect("get");
        assert_eq!(r.status().as_u16(), 401);
    }
}
