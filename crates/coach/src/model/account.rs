//! Whose credits a model spends: its [`Account`], the key its requests carry
//! (by name: the secret itself is never here) and the host they go to. A
//! `402` (credits spent) or a `401` (the key refused) from one model stops
//! the models on the same account and nobody else (`routing::Router::record_outcome`): a third-party host
//! out of credits says nothing about Hugging Face, nor about a local Ollama.

use super::{Credential, ModelSpec};

/// The key a model's requests carry, named (see [`ModelSpec::credential`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KeyName {
    /// The server's `HF_TOKEN` (a Hugging Face host, no `token_env`).
    HfToken,
    /// The environment variable its `token_env` names.
    Env(String),
    /// No `Authorization` header at all.
    Nothing,
}

impl std::fmt::Display for KeyName {
    /// The variable's name, for the log (never its value).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeyName::HfToken => f.write_str("HF_TOKEN"),
            KeyName::Env(name) => f.write_str(name),
            KeyName::Nothing => f.write_str("no key"),
        }
    }
}

/// A model's key and host: models with the same account spend the same credits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Account {
    pub key: KeyName,
    /// The host requests go to, as the URL parser reads it (lower-cased, no
    /// port): one key may be good at several providers, each with its own bill.
    pub host: String,
}

impl Account {
    /// An account no other model shares (a model called without a key).
    pub fn keyless(host: &str) -> Self {
        Self {
            key: KeyName::Nothing,
            host: host.to_string(),
        }
    }

    /// Do requests on `self` and on `other` spend the same credits? Only
    /// when they carry the same key to the same host. Models called without
    /// a key share nothing: each one's 402 is its own.
    pub fn shares_credits_with(&self, other: &Account) -> bool {
        self.key != KeyName::Nothing && self == other
    }
}

impl ModelSpec {
    /// Whose credits this model spends (see [`Account`]).
    pub fn account(&self) -> Account {
        let key = match (self.credential(), &self.token_env) {
            (Credential::Own(_), Some(name)) => KeyName::Env(name.clone()),
            (Credential::HuggingFace, _) => KeyName::HfToken,
            _ => KeyName::Nothing,
        };
        Account {
            key,
            host: self.endpoint().host_str().unwrap_or_default().to_string(),
        }
    }
}
