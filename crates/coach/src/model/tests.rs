//! Which hosts are local or Hugging Face's, and which secret each model gets.

use super::*;
use crate::registry::Registry;

/// A chat model at `url`, with `extra` TOML lines; `FAKE_KEY` is set.
fn spec(url: &str, extra: &str) -> ModelSpec {
    let toml = format!(
        "[[models]]\nalias = \"a\"\nmodel = \"m/m\"\napi = \"chat\"\nbase_url = \"{url}\"\n{extra}"
    );
    let env = |name: &str| (name == "FAKE_KEY").then(|| "sk-fake-key".to_string());
    let mut registry = Registry::parse_with_env(&toml, env).unwrap();
    registry.models.remove(0)
}

#[test]
fn local_hosts_are_recognised() {
    let local = |url: &str| spec(url, "").is_local();
    assert!(local("http://127.0.0.1:11434/v1"));
    assert!(local("http://127.0.0.2:8080"));
    assert!(local("http://127.1:8080/v1"), "the URL parser's 127.0.0.1");
    assert!(local("http://localhost:8080"));
    assert!(local("http://LOCALHOST/v1"));
    assert!(local("http://[::1]:8080/v1"));
    assert!(local("http://[::ffff:127.0.0.1]/v1"));
    assert!(!local("https://router.huggingface.co/v1"));
    assert!(!local("http://localhost.example.com/v1"));
    assert!(!local("http://127.evil.example/v1"));
    assert!(!local("http://127.0.0.1.evil.example/v1"));
    assert!(!local("http://localhost@evil.example/v1"));
    assert!(!local("http://evil.example/127.0.0.1/v1"));
    assert!(!local("http://10.0.0.1:11434/v1"));
    assert!(!local("http://[::2]/v1"));
}

#[test]
fn hugging_face_hosts_are_recognised() {
    let hf = |url: &str| spec(url, "").is_hugging_face();
    assert!(hf("https://router.huggingface.co/v1"));
    assert!(hf("https://huggingface.co/api"));
    assert!(hf("https://api-inference.huggingface.co/models/{model}"));
    assert!(hf("https://ROUTER.HuggingFace.co:443/v1"));
    assert!(hf(
        "https://x1y2.us-east-1.aws.endpoints.huggingface.cloud/v1"
    ));
    assert!(
        !hf("http://router.huggingface.co/v1"),
        "never in clear text"
    );
    assert!(!hf("https://router.hugginface.co/v1"), "a typo");
    assert!(!hf("https://evilhuggingface.co/v1"));
    assert!(!hf("https://huggingface.co.evil.example/v1"));
    assert!(!hf("https://router.huggingface.co@evil.example/v1"));
    assert!(!hf("https://evil.example/huggingface.co/v1"));
    assert!(
        !hf("https://someone-app.hf.space/v1"),
        "a Space runs its owner's code"
    );
    assert!(!hf("https://huggingface.cloud/v1"));
    assert!(!hf("http://127.0.0.1:11434/v1"));
}

#[test]
fn each_model_gets_its_own_secret_or_none() {
    let hf = spec("https://router.huggingface.co/v1", "");
    assert_eq!(hf.credential(), Credential::HuggingFace);
    assert_eq!(hf.key_notice(), None);
    let own = spec("https://api.example.com/v1", "token_env = \"FAKE_KEY\"\n");
    assert_eq!(
        own.credential(),
        Credential::Own(Secret::new("sk-fake-key").as_ref())
    );
    assert_eq!(own.key_notice(), None);
    assert!(
        !format!("{own:?}").contains("sk-fake-key"),
        "the key is never printed"
    );
    // token_env wins over the host: a Hugging Face host gets the named key.
    let named = spec(
        "https://router.huggingface.co/v1",
        "token_env = \"FAKE_KEY\"\n",
    );
    assert_eq!(
        named.credential(),
        Credential::Own(Secret::new("sk-fake-key").as_ref())
    );
    let unset = spec(
        "https://api.example.com/v1",
        "token_env = \"NOT_SET_ANYWHERE\"\n",
    );
    assert_eq!(unset.credential(), Credential::Own(None));
    let notice = unset.key_notice().unwrap();
    assert!(
        notice.contains("\"a\"") && notice.contains("NOT_SET_ANYWHERE"),
        "{notice}"
    );
    let ollama = spec("http://127.0.0.1:11434/v1", "");
    assert_eq!(
        (ollama.credential(), ollama.key_notice()),
        (Credential::Nothing, None)
    );
    let typo = spec("https://router.hugginface.co/v1", "");
    assert_eq!(typo.credential(), Credential::Nothing);
    assert!(typo.key_notice().unwrap().contains("without a key"));
    let clear = spec("http://gpu-box.lan:8000/v1", "token_env = \"FAKE_KEY\"\n");
    assert!(clear.key_notice().unwrap().contains("unencrypted"));
}

#[test]
fn each_model_spends_the_credits_of_its_key_at_its_host() {
    let account = |url: &str, extra: &str| spec(url, extra).account();
    let hf = account("https://router.huggingface.co/v1", "");
    assert_eq!(
        hf,
        Account {
            key: KeyName::HfToken,
            host: "router.huggingface.co".into()
        }
    );
    assert!(hf.shares_credits_with(&account("https://ROUTER.huggingface.co/v1/", "")));
    let own = account("https://api.example.com/v1", "token_env = \"FAKE_KEY\"\n");
    assert_eq!(own.key, KeyName::Env("FAKE_KEY".into()));
    assert!(
        !format!("{own:?}").contains("sk-fake"),
        "a name, not the key"
    );
    assert!(own.shares_credits_with(&account(
        "https://api.example.com:8443/other/v1",
        "token_env = \"FAKE_KEY\"\n"
    )));
    assert!(!own.shares_credits_with(&account(
        "https://api.other.example/v1",
        "token_env = \"FAKE_KEY\"\n"
    )));
    assert!(!own.shares_credits_with(&hf));
    // The named key wins over the host, as it does for the request.
    let named = account(
        "https://router.huggingface.co/v1",
        "token_env = \"FAKE_KEY\"\n",
    );
    assert!(!named.shares_credits_with(&hf));
    let ollama = account("http://127.0.0.1:11434/v1", "");
    assert_eq!(ollama, Account::keyless("127.0.0.1"));
    assert!(
        !ollama.shares_credits_with(&ollama.clone()),
        "no key: its 402 is its own"
    );
}
