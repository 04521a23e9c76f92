//! The languages the coach speaks, and how a request's language is chosen
//! (`?lang=`, else `Accept-Language`). Shared by the server and the browser;
//! a leaf. Adding a language: a variant here, then its words in the coach
//! (`coach::words`, `coach::offline::phrasebook`), the page (`page::i18n`)
//! and the insights pages; the compiler names every `match` that lacks it.

use serde::{Deserialize, Serialize};

/// The languages the coach speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Pt,
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Pt, Lang::Zh];

    #[inline]
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Pt => "pt",
            Lang::Zh => "zh",
        }
    }

    /// `en`, `pt`, `zh`, also with a region (`pt-BR`, `zh-CN`), any case.
    #[inline]
    pub fn parse(tag: &str) -> Option<Self> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// The best supported language of an `Accept-Language` header, by its q-values.
    pub fn from_accept_language(header: &str) -> Option<Self> {
        let mut best: Option<(f32, Lang)> = None;
        for part in header.split(',') {
            let mut pieces = part.split(';');
            let Some(lang) = pieces.next().and_then(Lang::parse) else {
                continue;
            };
            let q = pieces
                .find_map(|p| {
                    let p = p.trim();
                    // `q=` in any case (RFC 9110: parameter names are case-insensitive).
                    p.get(..2)
                        .filter(|name| name.eq_ignore_ascii_case("q="))
                        .map(|_| &p[2..])
                })
                .and_then(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if q > 0.0 && best.is_none_or(|(bq, _)| q > bq) {
                best = Some((q, lang));
            }
        }
        best.map(|(_, l)| l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_from_tags_and_accept_language() {
        assert_eq!(Lang::parse("pt-BR"), Some(Lang::Pt));
        assert_eq!(Lang::parse("ZH_cn"), Some(Lang::Zh));
        assert_eq!(Lang::parse("fr"), None);
        assert_eq!(
            Lang::from_accept_language("fr-FR,fr;q=0.9,pt;q=0.8,en;q=0.7"),
            Some(Lang::Pt)
        );
        assert_eq!(
            Lang::from_accept_language("en;q=0.5, zh-CN"),
            Some(Lang::Zh)
        );
        assert_eq!(Lang::from_accept_language("de, fr"), None);
        assert_eq!(Lang::from_accept_language("pt;q=0"), None);
        assert_eq!(Lang::from_accept_language("pt;Q=0"), None, "Q= is q=");
        assert_eq!(
            Lang::from_accept_language("pt;Q=0.2, zh;q=0.5"),
            Some(Lang::Zh)
        );
    }
}
