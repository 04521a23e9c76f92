//! What the HTTP provider reads beside a comment (who served it, its tokens),
//! where `X-HF-Bill-To` goes, and what an availability check asks and sends.

use std::time::Duration;

use super::{
    tests::{chat_at, prompt, spec, HF_TOKEN},
    *,
};
use crate::{availability::Availability, providers::Usage};
use serde_json::json;
use wiremock::{
    matchers::{method, path},
    Mock, MockServer, ResponseTemplate,
};

fn provider() -> HttpProvider {
    HttpProvider::new(Secret::new(HF_TOKEN)).with_bill_to(BillTo::parse("my-school"))
}

#[tokio::test]
async fn the_provider_that_answered_and_the_tokens_it_billed_are_read() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("x-inference-provider", "nscale")
                .set_body_json(json!({"choices": [{"message": {"content": "Nice!"}}],
                    "usage": {"prompt_tokens": 412, "completion_tokens": 23, "total_tokens": 435}})),
        )
        .mount(&server)
        .await;
    let called = provider()
        .call(
            &chat_at(&server.uri(), ""),
            &prompt(),
            Duration::from_secs(5),
        )
        .await;
    assert_eq!(called.result.unwrap(), "Nice!");
    assert_eq!(called.served.by.unwrap().as_str(), "nscale");
    assert_eq!(called.served.usage, Usage::new(Some(412), Some(23)));
    // A failure names its provider too; a name that is no name is dropped.
    for (header, named) in [("groq", Some("groq")), ("<b>x</b>", None)] {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(429).insert_header("x-inference-provider", header))
            .mount(&server)
            .await;
        let called = provider()
            .call(
                &chat_at(&server.uri(), ""),
                &prompt(),
                Duration::from_secs(5),
            )
            .await;
        assert!(matches!(
            called.result,
            Err(ProviderError::RateLimited { .. })
        ));
        assert_eq!(called.served.by.as_ref().map(ProviderName::as_str), named);
        assert_eq!(called.served.usage, None);
    }
}

#[tokio::test]
async fn the_organisation_billed_is_named_to_hugging_face_hosts_only() {
    let provider = provider();
    let router = spec("[[models]]\nalias = \"m\"\nmodel = \"org/m\"\napi = \"chat\"\n");
    assert_eq!(provider.bill_to_for(&router), Some("my-school"));
    let endpoint = spec("[[models]]\nalias = \"m\"\nmodel = \"org/m\"\napi = \"chat\"\nbase_url = \"https://xyz.us-east-1.aws.endpoints.huggingface.cloud/v1\"\n");
    assert_eq!(provider.bill_to_for(&endpoint), Some("my-school"));
    // Anywhere else it is never sent, not on a call and not on a check.
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"choices": [{"message": {"content": "Hi"}}]})),
        )
        .mount(&server)
        .await;
    let elsewhere = chat_at(&server.uri(), "");
    assert_eq!(provider.bill_to_for(&elsewhere), None);
    provider
        .call(&elsewhere, &prompt(), Duration::from_secs(5))
        .await
        .result
        .unwrap();
    provider.check(&elsewhere).await;
    let requests = server.received_requests().await.unwrap();
    assert!(requests.len() >= 2, "a call and a check");
    assert!(requests
        .iter()
        .all(|r| !r.headers.contains_key("x-hf-bill-to")));
}

#[tokio::test]
async fn a_check_asks_the_models_path_then_the_list_with_the_calls_key_only() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"data": [{"id": "org/m"}]})))
        .mount(&server)
        .await;
    let keyed = chat_at(&server.uri(), "token_env = \"UPSTREAM_KEY\"\n");
    let check = provider().check(&keyed).await;
    assert_eq!(check.availability, Availability::Live { providers: vec![] });
    assert_eq!(check.card, None, "not a Hugging Face host: no card asked");
    let requests = server.received_requests().await.unwrap();
    let paths: Vec<&str> = requests.iter().map(|r| r.url.path()).collect();
    assert_eq!(paths, ["/v1/models/org/m", "/v1/models"]);
    for r in &requests {
        let auth = r.headers.get("authorization").unwrap().to_str().unwrap();
        assert_eq!(
            auth,
            format!("Bearer {}", super::tests::OWN_KEY),
            "its own key, never HF_TOKEN"
        );
    }
    // A model whose key is missing is never asked about.
    let unset = chat_at(&server.uri(), "token_env = \"NOT_SET\"\n");
    let before = server.received_requests().await.unwrap().len();
    let check = provider().check(&unset).await;
    assert!(matches!(check.availability, Availability::Unknown { .. }));
    assert_eq!(server.received_requests().await.unwrap().len(), before);
}
