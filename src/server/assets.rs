//! The site's static files, served the way a production site serves them.
//!
//! A release build (`cargo leptos build --release --precompress`, with
//! `hash-files = true` in `Cargo.toml`) names the JS, WASM and CSS after their
//! content (`pkg/jay-trainer.<hash>.wasm`), writes each beside a gzip and a
//! brotli copy (`….wasm.gz`, `….wasm.br`), and lists the hashes in `hash.txt`
//! next to the server's executable. So:
//!
//! - `/pkg/*` is served from those files with the encoding the browser accepts
//!   (tower-http's `ServeDir`, precompressed: nothing is compressed per
//!   request), `Vary: Accept-Encoding`;
//! - hashed names never change content, so they are cached for a year,
//!   `immutable` (a new build has new names); unhashed ones (a debug build)
//!   are revalidated on every use (`no-cache`), so a rebuild is seen at once;
//! - that policy goes only on a file that exists (a `2xx`, or a `304` for a
//!   current copy): a miss or any other error is `no-store`, or a name of the
//!   next build, asked of an old instance mid-deploy, would be remembered as
//!   missing for a year;
//! - the page links the stylesheet by its hashed name ([`SiteAssets::stylesheet`]);
//!   Leptos's `HydrationScripts` reads the same file for the JS and WASM names.
//!
//! The page itself is revalidated instead ([`super::revalidate`]).

use std::{
    fs, io,
    path::{Path, PathBuf},
};

use axum::http::{header, HeaderValue, Response, StatusCode};
use leptos::config::LeptosOptions;

use crate::page::{
    app::StylesheetHref,
    two::{self, Bundle},
};
use tower_http::{
    services::ServeDir,
    set_header::{MakeHeaderValue, SetResponseHeader},
};

/// Where the site's hashed names are, as built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteAssets {
    /// `hash.txt`'s `css:` entry, when the build hashed its files.
    css_hash: Option<String>,
}

/// The `/pkg` service: files, their cache policy, `Vary`.
pub type Files = SetResponseHeader<SetResponseHeader<ServeDir, WhenFound>, HeaderValue>;

/// The cache policy of a file whose name carries its content's hash.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// `Cache-Control` by outcome: its policy for a file that was found (`2xx`,
/// or `304`: the visitor's copy is current), `no-store` for anything else.
#[derive(Clone, Debug)]
pub struct WhenFound(HeaderValue);

impl<B> MakeHeaderValue<Response<B>> for WhenFound {
    fn make_header_value(&mut self, response: &Response<B>) -> Option<HeaderValue> {
        let status = response.status();
        Some(
            if status.is_success() || status == StatusCode::NOT_MODIFIED {
                self.0.clone()
            } else {
                HeaderValue::from_static("no-store")
            },
        )
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AssetsError {
    #[error("LEPTOS_HASH_FILES is true but {path} cannot be read ({source}): build with `cargo leptos build --release` and keep hash.txt next to the executable")]
    Unreadable { path: PathBuf, source: io::Error },
    #[error("{path} has no `css: <hash>` line")]
    NoCss { path: PathBuf },
}

impl SiteAssets {
    /// Unhashed names (a debug build, `cargo test`).
    pub fn plain() -> Self {
        Self { css_hash: None }
    }

    /// The names of the build beside `exe`: hashed when its `hash.txt` is there
    /// (cargo-leptos writes it next to the binary) or `hash_files` says so.
    pub fn beside(
        exe: &Path,
        file_name: &str,
        hash_files: Option<bool>,
    ) -> Result<Self, AssetsError> {
        let path = exe.parent().unwrap_or(Path::new(".")).join(file_name);
        match (hash_files, path.exists()) {
            (Some(false), _) | (None, false) => Ok(Self::plain()),
            _ => {
                let text = fs::read_to_string(&path).map_err(|source| AssetsError::Unreadable {
                    path: path.clone(),
                    source,
                })?;
                let css_hash = parse_hashes(&text, "css").ok_or(AssetsError::NoCss { path })?;
                Ok(Self {
                    css_hash: Some(css_hash),
                })
            }
        }
    }

    /// The names `options` use: hashed when `hash_files` is on (checked at
    /// start-up by [`crate::server::config::Settings::from_env`]; if the file
    /// went missing since, plain names and an error in the log, as Leptos does).
    pub fn of(options: &LeptosOptions) -> Self {
        if !options.hash_files {
            return Self::plain();
        }
        let exe = std::env::current_exe().unwrap_or_default();
        Self::beside(&exe, &options.hash_file, Some(true)).unwrap_or_else(|e| {
            tracing::error!("{e}");
            Self::plain()
        })
    }

    /// Whether the build's file names carry their content's hash.
    pub fn hashed(&self) -> bool {
        self.css_hash.is_some()
    }

    /// The stylesheet's address: `/pkg/jay-trainer.<hash>.css`.
    pub fn stylesheet(&self, options: &LeptosOptions) -> StylesheetHref {
        StylesheetHref::new(options, self.css_hash.as_deref())
    }

    /// `/pkg/*`: the built files, precompressed, with their cache policy.
    pub fn service(&self, pkg_root: PathBuf) -> Files {
        let policy = if self.hashed() { IMMUTABLE } else { "no-cache" };
        let files = ServeDir::new(pkg_root)
            .precompressed_br()
            .precompressed_gzip();
        let cached = SetResponseHeader::overriding(
            files,
            header::CACHE_CONTROL,
            WhenFound(HeaderValue::from_static(policy)),
        );
        // A shared cache must keep the encodings apart (ServeDir does not say so).
        SetResponseHeader::overriding(
            cached,
            header::VARY,
            HeaderValue::from_static("accept-encoding"),
        )
    }
}

/// The site's folder of bundles built outside cargo-leptos, and lesson 2's
/// bundle in it, named in its `page-two.txt` (`js: …`, `wasm: …`, the
/// format of `hash.txt`); `None`, and a warning in the log, when it was not
/// built: `/two` then works as a form, without its controller.
pub fn page_two(options: &LeptosOptions) -> (PathBuf, Option<Bundle>) {
    let dir = Path::new(options.site_root.as_ref()).join(two::DIR);
    let bundle = fs::read_to_string(dir.join("page-two.txt"))
        .ok()
        .and_then(|text| bundle_of(&text));
    if bundle.is_none() {
        tracing::warn!("no lesson 2 bundle in {dir:?} (.ci/page-two): /two works as a form");
    }
    (dir, bundle)
}

/// The bundle a `page-two.txt` names: both files, plain names only.
fn bundle_of(text: &str) -> Option<Bundle> {
    let name = |kind| parse_hashes(text, kind).filter(|v| !v.contains(['/', '"', '<']));
    Some(Bundle {
        js: name("js")?,
        wasm: name("wasm")?,
    })
}

/// The `kind: hash` entry of a cargo-leptos `hash.txt` (`js: …`, `wasm: …`, `css: …`).
fn parse_hashes(text: &str, kind: &str) -> Option<String> {
    text.lines()
        .filter_map(|line| line.trim().split_once(':'))
        .find(|(k, _)| k.trim() == kind)
        .map(|(_, hash)| hash.trim().to_string())
        .filter(|hash| !hash.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lesson_twos_bundle_is_named_by_its_list() {
        let b = bundle_of("js: page-two.abc.js\nwasm: page-two.abc.wasm\n").expect("both");
        assert_eq!(
            (b.js.as_str(), b.wasm.as_str()),
            ("page-two.abc.js", "page-two.abc.wasm")
        );
        assert_eq!(bundle_of("js: a.js\n"), None, "no wasm");
        assert_eq!(bundle_of("js: \"><script>\nwasm: x"), None, "names only");
    }

    #[test]
    fn reads_the_css_hash_of_cargo_leptos_hash_file() {
        let text = "js: 7QlcG-6eCk3GBmPBdDGSng\nwasm: VbBsLGj5Hn4cMm0TnXW-Pw\ncss: 2hzbU0oN-9Y1wmZ0ru-nJA\n";
        assert_eq!(
            parse_hashes(text, "css").as_deref(),
            Some("2hzbU0oN-9Y1wmZ0ru-nJA")
        );
        assert_eq!(
            parse_hashes(text, "wasm").as_deref(),
            Some("VbBsLGj5Hn4cMm0TnXW-Pw")
        );
        assert_eq!(parse_hashes("js: a\n", "css"), None);
        assert_eq!(parse_hashes("css:   \n", "css"), None);
    }

    #[test]
    fn hashed_only_with_a_hash_file_unless_told() {
        let dir = std::env::temp_dir().join(format!("jay-assets-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("jay-trainer");
        // No hash file: plain names, unless hashing is demanded.
        assert_eq!(
            SiteAssets::beside(&exe, "hash.txt", None).unwrap(),
            SiteAssets::plain()
        );
        assert!(matches!(
            SiteAssets::beside(&exe, "hash.txt", Some(true)),
            Err(AssetsError::Unreadable { .. })
        ));
        fs::write(dir.join("hash.txt"), "js: a\nwasm: b\ncss: c\n").unwrap();
        let found = SiteAssets::beside(&exe, "hash.txt", None).unwrap();
        let options = LeptosOptions::builder().output_name("jay-trainer").build();
        assert_eq!(found.stylesheet(&options).0, "/pkg/jay-trainer.c.css");
        // Turned off: plain names even with the file there.
        assert!(!SiteAssets::beside(&exe, "hash.txt", Some(false))
            .unwrap()
            .hashed());
        fs::remove_dir_all(&dir).unwrap();
    }
}
