//! The checks of single fields of a model's entry: its `token_env`, its
//! `languages` and a `:` suffix on its `model`.

use super::{invalid, RegistryError};
use crate::model::Api;
use vocabulary::Lang;

/// The server's own secrets: a model's `token_env` may not name them (its
/// value goes to the model's `base_url`, which may be anyone's).
const SERVER_SECRETS: [&str; 4] = [
    "HF_TOKEN",
    "JAY_DATABASE_URL",
    "JAY_INSIGHTS_TOKEN",
    "JAY_MODELS_TOKEN",
];

/// A `token_env`: a variable's name, and none of [`SERVER_SECRETS`].
pub fn token_env(alias: &str, name: &str) -> Result<(), RegistryError> {
    let mut bytes = name.bytes();
    let name_ok = name.len() <= 128
        && bytes
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if !name_ok {
        return Err(invalid(
            alias,
            "token_env",
            "must name an environment variable (letters, digits and _, not starting with a digit)",
        ));
    }
    if SERVER_SECRETS.contains(&name) {
        return Err(invalid(
            alias,
            "token_env",
            format!(
                "must not name one of the server's own secrets ({}): its value would be sent to this model's server",
                SERVER_SECRETS.join(", ")
            ),
        ));
    }
    Ok(())
}

/// A model's `languages`: at least one, each `en`, `pt` or `zh` (a region
/// such as `pt-BR` is read as its language), none twice.
pub fn languages(alias: &str, codes: &[String]) -> Result<Vec<Lang>, RegistryError> {
    let mut out = Vec::new();
    for code in codes {
        let lang = Lang::parse(code).ok_or_else(|| {
            invalid(
                alias,
                "languages",
                format!("{code:?} is not one of \"en\", \"pt\", \"zh\""),
            )
        })?;
        if out.contains(&lang) {
            return Err(invalid(
                alias,
                "languages",
                format!("{code:?} is listed twice"),
            ));
        }
        out.push(lang);
    }
    if out.is_empty() {
        return Err(invalid(
            alias,
            "languages",
            "must name at least one language (leave it out for all; enabled = false turns a model off)",
        ));
    }
    Ok(out)
}

/// A `:` suffix on a model id: on a text-generation endpoint whose URL holds
/// `{model}` it would end up in the URL, and is refused; on Hugging Face's
/// router (no `base_url`) it must be a policy or a provider's name (`a-z`,
/// `0-9`, `-`). Other servers' ids are their own (Ollama's `qwen2.5:7b`).
pub fn model_suffix(
    alias: &str,
    model: &str,
    api: &Api,
    base_url: Option<&str>,
) -> Result<(), RegistryError> {
    let Some((_, suffix)) = model.rsplit_once(':') else {
        return Ok(());
    };
    let in_url = base_url.is_some_and(|u| u.contains("{model}"));
    if matches!(api, Api::TextGeneration { .. }) && in_url {
        return Err(invalid(
            alias,
            "model",
            "a \":\" suffix would end up in the endpoint's URL ({model}): name the model as its server knows it",
        ));
    }
    let provider_like = !suffix.is_empty()
        && suffix.len() <= 32
        && suffix
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if base_url.is_none() && !provider_like {
        return Err(invalid(
            alias,
            "model",
            format!("{suffix:?} is neither a routing policy (fastest, cheapest, preferred) nor a provider's name (such as nscale)"),
        ));
    }
    Ok(())
}
