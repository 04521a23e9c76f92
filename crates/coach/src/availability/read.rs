//! The checks' answers read: a model's info (`GET {base_url}/models/{id}`),
//! a server's list (`GET {base_url}/models`) and a Hub model card (`GET
//! {hub}/api/models/{id}`). Upstream text, untrusted: read leniently (what
//! is not there, or not what it should be, is left out) and bounded.

use serde_json::Value;

use super::{strings, Availability, Pricing, ProviderStatus};
use crate::upstream::ProviderName;
use vocabulary::Lang;

/// Providers read of one model at most (Hugging Face had 18 in 2026).
const MAX_LISTED: usize = 64;

/// Ids named in a "not listed" reason at most.
const NAMED: usize = 5;

/// What `GET {base_url}/models/{id}` says, if it decides: the router's
/// providers (of which only `pinned` counts, for a model id ending in
/// `:<provider>`), or an OpenAI-compatible server's model object. `None`
/// when the list should decide (a 404, 405 or 501: the model or the path
/// is unknown there).
pub fn model_info(status: u16, body: &str, pinned: Option<&str>) -> Option<Availability> {
    match status {
        200..=299 => {}
        404 | 405 | 501 => return None,
        other => {
            return Some(Availability::Unknown {
                why: format!("the model's info answered {other}"),
            })
        }
    }
    let Ok(json) = serde_json::from_str::<Value>(body) else {
        return Some(Availability::Unknown {
            why: "the model's info is not JSON".into(),
        });
    };
    // The model itself, or wrapped in `data` as a list's entries are.
    let model = json.get("data").filter(|d| d.is_object()).unwrap_or(&json);
    let Some(listed) = model.get("providers").and_then(Value::as_array) else {
        // An OpenAI-compatible server's `{"id": …, "object": "model"}`.
        return Some(Availability::Live {
            providers: Vec::new(),
        });
    };
    Some(from_providers(providers(listed), pinned))
}

/// What a server's list says of `id`: listed (served) or not. Anything but
/// a list is no answer: the model stays callable.
pub fn model_list(status: u16, body: &str, id: &str, pinned: Option<&str>) -> Availability {
    let list = (200..300)
        .contains(&status)
        .then(|| serde_json::from_str::<Value>(body).ok())
        .flatten();
    let Some(data) = list.as_ref().and_then(|l| l.get("data")?.as_array()) else {
        return Availability::Unknown {
            why: "the server answers neither /models/{id} nor a /models list".into(),
        };
    };
    let ids: Vec<&str> = data.iter().filter_map(|m| m.get("id")?.as_str()).collect();
    match data
        .iter()
        .find(|m| m.get("id").and_then(Value::as_str) == Some(id))
    {
        Some(entry) => match entry.get("providers").and_then(Value::as_array) {
            Some(listed) => from_providers(providers(listed), pinned),
            None => Availability::Live {
                providers: Vec::new(),
            },
        },
        None => {
            let some: Vec<&str> = ids.iter().take(NAMED).copied().collect();
            let more = if ids.len() > NAMED { ", …" } else { "" };
            Availability::NotServed {
                why: format!(
                    "not among the {} models the server lists ({}{more})",
                    ids.len(),
                    some.join(", ")
                ),
                providers: Vec::new(),
            }
        }
    }
}

/// The languages a Hub model card declares, of those the coach speaks
/// (`multilingual` is all of them); `None` when the card does not say.
pub fn card_languages(status: u16, body: &str) -> Option<Vec<Lang>> {
    if !(200..300).contains(&status) {
        return None;
    }
    let json: Value = serde_json::from_str(body).ok()?;
    let declared = strings(json.get("cardData")?.get("language")?);
    if declared.is_empty() {
        return None;
    }
    if declared
        .iter()
        .any(|l| l.eq_ignore_ascii_case("multilingual"))
    {
        return Some(Lang::ALL.to_vec());
    }
    let mut langs: Vec<Lang> = Vec::new();
    for lang in declared.iter().filter_map(|code| Lang::parse(code)) {
        if !langs.contains(&lang) {
            langs.push(lang);
        }
    }
    Some(langs)
}

/// The router's provider entries, as far as they read.
fn providers(listed: &[Value]) -> Vec<ProviderStatus> {
    listed
        .iter()
        .take(MAX_LISTED)
        .filter_map(|p| {
            let provider = ProviderName::parse(p.get("provider")?.as_str()?)?;
            let live = p.get("status").and_then(Value::as_str) == Some("live");
            let price = |key: &str| {
                p.get("pricing")?
                    .get(key)?
                    .as_f64()
                    .filter(|usd| usd.is_finite() && *usd >= 0.0)
            };
            let pricing = price("input")
                .zip(price("output"))
                .map(|(input, output)| Pricing { input, output });
            Some(ProviderStatus {
                provider,
                live,
                pricing,
            })
        })
        .collect()
}

/// Served when a provider that counts is live; otherwise why not.
fn from_providers(providers: Vec<ProviderStatus>, pinned: Option<&str>) -> Availability {
    let counts = |p: &ProviderStatus| pinned.is_none_or(|name| p.provider.as_str() == name);
    if providers.iter().any(|p| p.live && counts(p)) {
        return Availability::Live { providers };
    }
    let why = match pinned {
        Some(name) if !providers.iter().any(counts) => {
            format!("the provider it is pinned to ({name}) does not serve it")
        }
        Some(name) => format!("the provider it is pinned to ({name}) is not live"),
        None if providers.is_empty() => "no provider serves it".to_string(),
        None => {
            let down: Vec<&str> = providers.iter().map(|p| p.provider.as_str()).collect();
            format!("no live provider ({}: error)", down.join(", "))
        }
    };
    Availability::NotServed { why, providers }
}
