//! The languages the coach speaks, and how a request's language is chosen
//! (`?lang=`, else `Accept-Language`), and what is true of a language
//! whatever is said in it ([`Profile`]: its tags, its name, its number
//! separators, whether its words are spaced). Shared by the server and the
//! browser; a leaf. Adding a language: a variant and its profile here, then
//! one file of its words in each crate that speaks (`coach::words`,
//! `coach::offline::phrasebook`, the page's `i18n`, the insights pages'
//! `words`); the compiler names each `match` that lacks it.

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

/// What is true of a language whatever is said in it.
#[derive(Debug, PartialEq, Eq)]
pub struct Profile {
    /// The primary subtag: `?lang=`, the registry's `languages`, the store.
    pub code: &'static str,
    /// The `lang` attribute of a page in it (`pt-BR`, `zh-CN`).
    pub html_tag: &'static str,
    /// Its name in its own words (the language switchers' labels).
    pub endonym: &'static str,
    /// Its decimal separator and its thousands separator.
    pub decimal: char,
    pub group: char,
    /// Whether its words are separated by spaces (not in Chinese): how a
    /// sentence is joined and how a text is cut into words.
    pub spaced: bool,
}

static EN: Profile = Profile {
    code: "en",
    html_tag: "en",
    endonym: "English",
    decimal: '.',
    group: ',',
    spaced: true,
};

static PT: Profile = Profile {
    code: "pt",
    html_tag: "pt-BR",
    endonym: "Português",
    decimal: ',',
    group: '.',
    spaced: true,
};

static ZH: Profile = Profile {
    code: "zh",
    html_tag: "zh-CN",
    endonym: "中文",
    decimal: '.',
    group: ',',
    spaced: false,
};

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Pt, Lang::Zh];

    /// Its profile.
    #[inline]
    pub fn profile(self) -> &'static Profile {
        match self {
            Lang::En => &EN,
            Lang::Pt => &PT,
            Lang::Zh => &ZH,
        }
    }

    /// Its place in [`Lang::ALL`] (an index into per-language arrays).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn code(self) -> &'static str {
        self.profile().code
    }

    /// The `lang` attribute of a page in it.
    #[inline]
    pub fn html_tag(self) -> &'static str {
        self.profile().html_tag
    }

    /// Its name in its own words.
    #[inline]
    pub fn endonym(self) -> &'static str {
        self.profile().endonym
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
    fn every_language_has_its_own_profile_in_its_place() {
        for (i, lang) in Lang::ALL.into_iter().enumerate() {
            assert_eq!(lang.index(), i);
            assert_eq!(Lang::parse(lang.code()), Some(lang));
            assert_eq!(Lang::parse(lang.profile().html_tag), Some(lang));
            assert_ne!(lang.profile().decimal, lang.profile().group);
        }
    }

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
