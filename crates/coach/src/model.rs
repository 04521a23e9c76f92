//! One model as the coach calls it: [`ModelSpec`], validated, with its API as
//! an enum ([`Api`]) so a chat model with a template, or a text-generation
//! model without one, cannot be written down.
//!
//! **Which secret goes where** ([`ModelSpec::credential`]): a model with
//! `token_env` gets that variable's value (read when the registry is loaded;
//! unset, the model is skipped); otherwise a model whose endpoint (the final
//! URL, `{model}` filled in) is on a Hugging Face host (`https`,
//! `huggingface.co` or a subdomain, or a dedicated Inference Endpoint under
//! `endpoints.huggingface.cloud`) gets `HF_TOKEN`; anything else (Ollama,
//! a third-party host, a typo'd domain, a Space on `*.hf.space`, which runs
//! someone's own code) is called with no `Authorization` header at all.
//!
//! A text-generation model's chat template is compiled here, once, with strict
//! undefined behaviour, and rendered once over a sample conversation: a typo
//! such as `{{ m.contnet }}` stops start-up instead of sending models empty
//! prompts. A leaf: it imports nothing of the coach.

use std::{fmt, net::IpAddr, sync::Arc, time::Duration};

use minijinja::{context, Environment, UndefinedBehavior};
use serde::Serialize;
use url::Url;

use crate::secret::Secret;
use vocabulary::Lang;

mod account;
pub use account::{Account, KeyName};

/// The Hugging Face router's OpenAI-compatible base URL.
pub const HF_CHAT_BASE: &str = "https://router.huggingface.co/v1";

/// The routing policies Hugging Face's router reads from a model id's
/// suffix (`model:cheapest`); any other suffix names a provider.
pub const HF_POLICIES: [&str; 3] = ["fastest", "cheapest", "preferred"];

/// A model's settings when its registry entry leaves them out.
pub const DEFAULT_MAX_NEW_TOKENS: u32 = 70;
pub const DEFAULT_TEMPERATURE: f32 = 0.5;
pub const DEFAULT_TIMEOUT_MS: u64 = 5_000;

/// How a model is called.
#[derive(Clone, Debug, PartialEq)]
pub enum Api {
    /// OpenAI-compatible `POST {base_url}/chat/completions`.
    Chat,
    /// `POST {base_url}` (with `{model}` replaced) and `{inputs, parameters}`,
    /// the prompt formatted by the model's own chat template.
    TextGeneration { template: Template },
}

impl Api {
    /// The name in the registry file and in `/models`.
    pub fn name(&self) -> &'static str {
        match self {
            Api::Chat => "chat",
            Api::TextGeneration { .. } => "text-generation",
        }
    }

    /// Where a model of this kind is called when its entry names no
    /// `base_url`: Hugging Face's router for chat; none for text-generation,
    /// which the router no longer serves (its `hf-inference` provider lists
    /// no language model since July 2026): a TGI or llama.cpp server's.
    pub fn default_base_url(&self) -> Option<&'static str> {
        match self {
            Api::Chat => Some(HF_CHAT_BASE),
            Api::TextGeneration { .. } => None,
        }
    }
}

/// A Jinja chat template (as in a model's `tokenizer_config.json`), compiled.
#[derive(Clone)]
pub struct Template {
    source: Arc<str>,
    env: Arc<Environment<'static>>,
}

/// The template's name inside its environment.
const CHAT: &str = "chat";

/// One turn of the sample conversation a template is tried on at load.
#[derive(Serialize)]
struct Turn {
    role: &'static str,
    content: &'static str,
}

const SAMPLE: [Turn; 4] = [
    Turn {
        role: "system",
        content: "Comment on the attempt.",
    },
    Turn {
        role: "user",
        content: "Error 900.",
    },
    Turn {
        role: "assistant",
        content: "Getting warm!|fim|",
    },
    Turn {
        role: "user",
        content: "Error 812.",
    },
];

impl Template {
    /// Compiles `source` (strict: a name the context lacks is an error) and
    /// renders it once over a sample conversation, so a broken template is
    /// found now, not on the first call.
    pub fn compile(source: &str) -> Result<Self, minijinja::Error> {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.add_template_owned(CHAT, source.to_string())?;
        let template = Self {
            source: Arc::from(source),
            env: Arc::new(env),
        };
        template.render(&SAMPLE)?;
        Ok(template)
    }

    /// The prompt for `messages` (each with `role` and `content`), ending with
    /// the assistant's turn opened.
    pub fn render<M: Serialize>(&self, messages: &[M]) -> Result<String, minijinja::Error> {
        self.env.get_template(CHAT)?.render(context! {
            messages => messages,
            bos_token => "",
            eos_token => "",
            add_generation_prompt => true,
        })
    }
}

impl PartialEq for Template {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl fmt::Debug for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Template").field(&self.source).finish()
    }
}

/// One model, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelSpec {
    pub alias: String,
    pub model: String,
    pub api: Api,
    /// Chat: the API root; text-generation: the endpoint (`{model}` replaced).
    pub base_url: String,
    pub max_new_tokens: u32,
    pub temperature: f32,
    pub timeout: Duration,
    /// Calls this model may have under way at once (`None`: no limit of its
    /// own). A model with a limit is taken to serve its calls one after
    /// another, as llama.cpp's server does unless told otherwise: the router
    /// starts a call only if the calls ahead of it leave time to finish
    /// (`coach::routing::queue`).
    pub max_concurrency: Option<u32>,
    /// The visitors' languages it is asked to answer in (all by default): an
    /// operator leaves out a language the model writes badly
    /// (docs/benchmarks/model.md), and those visitors get the other models or
    /// the offline commentator.
    pub languages: Vec<Lang>,
    /// The registry named them (else they may come from the model card:
    /// `coach::availability`).
    pub languages_given: bool,
    pub enabled: bool,
    /// The environment variable holding this model's own key, if any.
    pub token_env: Option<String>,
    /// That variable's value, read when the registry was loaded (`None`: unset).
    pub key: Option<Secret>,
    /// [`Self::endpoint`], parsed once (not on every call).
    endpoint: Url,
    /// [`Self::is_hugging_face`], decided once.
    hugging_face: bool,
}

/// Which secret a model's requests carry (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Credential<'a> {
    /// Its own key, from `token_env` (`None`: the variable is unset).
    Own(Option<&'a Secret>),
    /// A Hugging Face host: `HF_TOKEN`.
    HuggingFace,
    /// No `Authorization` header.
    Nothing,
}

/// Domains whose hosts (the domain itself and its subdomains) get `HF_TOKEN`.
const HF_DOMAINS: [&str; 2] = ["huggingface.co", "endpoints.huggingface.cloud"];

impl ModelSpec {
    /// A model called through `api` at `base_url` (`None`: Hugging Face's), with
    /// the default settings (`DEFAULT_*`, enabled, no key). `Err` names what is
    /// wrong with the URL.
    pub fn new(
        alias: String,
        model: String,
        api: Api,
        base_url: Option<String>,
    ) -> Result<Self, String> {
        let base_url = base_url
            .or_else(|| api.default_base_url().map(str::to_string))
            .ok_or("a text-generation model needs the base_url of a server that speaks it (TGI, llama.cpp): Hugging Face's router no longer serves text-generation; use api = \"chat\" there")?;
        let web = |u: &Url| matches!(u.scheme(), "http" | "https") && u.host_str().is_some();
        Url::parse(&base_url)
            .ok()
            .filter(web)
            .ok_or("must be an http:// or https:// URL with a host")?;
        let endpoint = match api {
            Api::Chat => format!("{}/chat/completions", base_url.trim_end_matches('/')),
            Api::TextGeneration { .. } => base_url.replace("{model}", &model),
        };
        let endpoint = Url::parse(&endpoint)
            .map_err(|e| format!("gives no usable URL ({e})"))
            .and_then(|u| {
                web(&u)
                    .then_some(u)
                    .ok_or_else(|| "gives no http(s) URL with a host".to_string())
            })?;
        Ok(Self {
            // Decided on where the request goes: a model id filled into the
            // host (`https://{model}.endpoints.huggingface.cloud` with
            // `evil.example#`) must not take the token elsewhere.
            hugging_face: is_hugging_face(&endpoint),
            endpoint,
            alias,
            model,
            api,
            base_url,
            max_new_tokens: DEFAULT_MAX_NEW_TOKENS,
            temperature: DEFAULT_TEMPERATURE,
            timeout: Duration::from_millis(DEFAULT_TIMEOUT_MS),
            max_concurrency: None,
            languages: Lang::ALL.to_vec(),
            languages_given: false,
            enabled: true,
            token_env: None,
            key: None,
        })
    }

    /// Whether the registry lets it answer in `lang` (the model card may
    /// narrow that: `coach::availability::Catalog::speaks`).
    pub fn speaks(&self, lang: Lang) -> bool {
        self.languages.contains(&lang)
    }

    /// The model's id as its server's `/models` knows it, and the provider
    /// the id pins, if any. On a Hugging Face host a `:` suffix is never part
    /// of the id: it is a routing policy (`:fastest`, `:cheapest`,
    /// `:preferred`) or a provider (`:nscale`); elsewhere (Ollama's
    /// `qwen2.5:7b-instruct`) it is.
    pub fn checked_id(&self) -> (&str, Option<&str>) {
        match self.model.rsplit_once(':') {
            Some((id, suffix)) if self.is_hugging_face() => {
                (id, (!HF_POLICIES.contains(&suffix)).then_some(suffix))
            }
            _ => (&self.model, None),
        }
    }

    /// The URL a request goes to.
    pub fn endpoint(&self) -> &Url {
        &self.endpoint
    }

    /// The endpoint's host, as the URL parser reads it (lower-cased; an IPv6
    /// address in brackets; `user@` and the port left out).
    fn host(&self) -> Option<&str> {
        self.endpoint.host_str()
    }

    /// True when the endpoint is on this machine: the host is `localhost` or a
    /// loopback address (`127.0.0.0/8`, `::1`). `127.evil.example` is a domain
    /// like any other.
    pub fn is_local(&self) -> bool {
        let Some(host) = self.host() else {
            return false;
        };
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        match bare.parse::<IpAddr>() {
            Ok(IpAddr::V4(ip)) => ip.is_loopback(),
            Ok(IpAddr::V6(ip)) => {
                ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
            }
            Err(_) => host == "localhost",
        }
    }

    /// True when the endpoint (the final URL) is a Hugging Face host reached
    /// over `https`:
    /// `huggingface.co` or one of its subdomains (the router, the Inference
    /// API), or a dedicated Inference Endpoint (`*.endpoints.huggingface.cloud`).
    /// Not `*.hf.space`: a Space runs its owner's code.
    pub fn is_hugging_face(&self) -> bool {
        self.hugging_face
    }

    /// Which secret this model's requests carry.
    pub fn credential(&self) -> Credential<'_> {
        if self.token_env.is_some() {
            Credential::Own(self.key.as_ref())
        } else if self.is_hugging_face() {
            Credential::HuggingFace
        } else {
            Credential::Nothing
        }
    }

    /// What an operator should know about this model's key, for the log at
    /// load: an unset `token_env` (the model is skipped), a key sent in clear
    /// text, a remote host that gets no key at all.
    pub fn key_notice(&self) -> Option<String> {
        let alias = &self.alias;
        let plain_remote = self.endpoint.scheme() == "http" && !self.is_local();
        match (self.credential(), &self.token_env) {
            (Credential::Own(None), Some(name)) => Some(format!(
                "model {alias:?}: token_env {name} is not set: the model is skipped"
            )),
            (Credential::Own(Some(_)), Some(name)) if plain_remote => Some(format!(
                "model {alias:?}: the key from {name} travels unencrypted (http:// to another machine)"
            )),
            (Credential::Nothing, _) if !self.is_local() => Some(format!(
                "model {alias:?}: not a Hugging Face host and no token_env: called without a key"
            )),
            _ => None,
        }
    }
}

/// See [`ModelSpec::is_hugging_face`].
fn is_hugging_face(endpoint: &Url) -> bool {
    let Some(host) = endpoint.host_str() else {
        return false;
    };
    endpoint.scheme() == "https"
        && HF_DOMAINS.iter().any(|domain| {
            host == *domain
                || host
                    .strip_suffix(domain)
                    .is_some_and(|sub| sub.ends_with('.'))
        })
}

#[cfg(test)]
mod tests;
