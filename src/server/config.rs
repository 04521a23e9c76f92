//! Typed configuration, read once from the environment at start-up.
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `PORT` | listen on `HOST:PORT` (what container platforms such as Hugging Face Spaces set) | unset |
//! | `HOST` | interface used with `PORT` | `0.0.0.0` |
//! | `LEPTOS_SITE_ADDR` | full listen address when `PORT` is unset (cargo-leptos sets it) | `127.0.0.1:3000` |
//! | `LEPTOS_SITE_ROOT` | folder with the built site (`pkg/`, assets) | `target/site` |
//! | `JAY_MODELS` | the model registry (TOML, see `coach::registry`) | `models.toml` |
//! | `HF_TOKEN` | Hugging Face token for remote models; unset: offline commentator | unset |
//!
//! The other `LEPTOS_*` variables are read by Leptos itself (`leptos_config`).

use std::{
    fmt,
    net::{IpAddr, SocketAddr},
    path::PathBuf,
};

use leptos::config::{errors::LeptosConfigError, get_configuration, LeptosOptions};

/// Name of the JS/WASM/CSS bundle, as in `[package.metadata.leptos] output-name`.
pub const OUTPUT_NAME: &str = "jay-trainer";

/// Everything the server needs, validated.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Leptos's options; `site_addr` is the address to listen on.
    pub leptos: LeptosOptions,
    /// The model registry file.
    pub models_path: PathBuf,
    /// Token for remote models (never printed: see [`Secret`]).
    pub hf_token: Option<Secret>,
}

/// A value that never shows in logs or debug output.
#[derive(Clone)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: String) -> Option<Self> {
        let value = value.trim().to_string();
        (!value.is_empty()).then_some(Self(value))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([redacted])")
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("PORT must be a whole number from 0 to 65535, got {0:?}")]
    Port(String),
    #[error("HOST must be an IP address such as 0.0.0.0 or 127.0.0.1, got {0:?}")]
    Host(String),
    #[error("Leptos configuration (LEPTOS_* variables): {0}")]
    Leptos(#[from] LeptosConfigError),
}

impl Settings {
    /// Reads and validates the environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        let mut leptos = get_configuration(None)?.leptos_options;
        if leptos.output_name.is_empty() {
            // Built without cargo-leptos (e.g. `cargo test`): use the known name.
            leptos.output_name = OUTPUT_NAME.into();
        }
        let port = std::env::var("PORT").ok();
        let host = std::env::var("HOST").ok();
        leptos.site_addr = resolve_addr(port.as_deref(), host.as_deref(), leptos.site_addr)?;
        let models_path = std::env::var_os("JAY_MODELS")
            .map_or_else(|| PathBuf::from("models.toml"), PathBuf::from);
        let hf_token = std::env::var("HF_TOKEN").ok().and_then(Secret::new);
        Ok(Self {
            leptos,
            models_path,
            hf_token,
        })
    }
}

/// `HOST:PORT` when `PORT` is set (host defaults to every interface), else `fallback`.
pub fn resolve_addr(
    port: Option<&str>,
    host: Option<&str>,
    fallback: SocketAddr,
) -> Result<SocketAddr, ConfigError> {
    let Some(port) = port.map(str::trim).filter(|p| !p.is_empty()) else {
        return Ok(fallback);
    };
    let port: u16 = port
        .parse()
        .map_err(|_| ConfigError::Port(port.to_string()))?;
    let host = host
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .unwrap_or("0.0.0.0");
    let ip: IpAddr = host
        .parse()
        .map_err(|_| ConfigError::Host(host.to_string()))?;
    Ok(SocketAddr::new(ip, port))
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn secrets_do_not_print() {
        let s = Secret::new(" hf_abc123 ".into()).unwrap();
        assert_eq!(s.expose(), "hf_abc123");
        assert!(!format!("{s:?}").contains("abc"));
        assert!(Secret::new("  ".into()).is_none());
    }

    #[test]
    fn bad_values_are_named_in_the_error() {
        let err = resolve_addr(Some("70000"), None, fallback()).unwrap_err();
        assert!(err.to_string().contains("PORT") && err.to_string().contains("70000"));
        let err = resolve_addr(Some("80"), Some("example.com"), fallback()).unwrap_err();
        assert!(err.to_string().contains("HOST"));
    }
}
