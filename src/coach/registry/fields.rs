//! The checks of single fields of a model's entry: its `token_env` and its
//! `languages`.

use super::{invalid, RegistryError};
use crate::coach::lang::Lang;

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
