//! Markup the server writes once and keeps: parts of the page that depend
//! only on the language or the map's view, never on the visitor's point (the
//! landscape's two views and its island, the chart's axes). Most of a
//! render of `/` went to their numbers. Server only: the browser writes what
//! it shows, and its WASM stays as it was.

use std::sync::OnceLock;

use lesson::map::MapView;
use vocabulary::Lang;

/// One slot per language.
pub type PerLang = [OnceLock<String>; Lang::ALL.len()];
/// One slot per language and map view (the page's two).
pub type PerView = [[OnceLock<String>; 2]; Lang::ALL.len()];

/// Empty slots per language, for a `static`.
pub const fn per_lang_slots() -> PerLang {
    [const { OnceLock::new() }; Lang::ALL.len()]
}

/// Empty slots per language and view, for a `static`.
pub const fn per_view_slots() -> PerView {
    [const { [const { OnceLock::new() }; 2] }; Lang::ALL.len()]
}

/// `make()` for `lang`, made once.
pub fn per_lang(slots: &'static PerLang, lang: Lang, make: impl FnOnce() -> String) -> String {
    slots[lang.index()].get_or_init(make).clone()
}

/// `make()` for `lang` and `view`, made once for the page's two views
/// (`MapView::full`, `MapView::valley`), each time for another.
pub fn per_view(
    slots: &'static PerView,
    lang: Lang,
    view: &MapView,
    make: impl FnOnce() -> String,
) -> String {
    match [MapView::full(), MapView::valley()]
        .iter()
        .position(|v| v == view)
    {
        Some(which) => slots[lang.index()][which].get_or_init(make).clone(),
        None => make(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_is_made_once_and_another_view_every_time() {
        static SLOTS: PerView = per_view_slots();
        let made = std::sync::atomic::AtomicUsize::new(0);
        let make = || {
            made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            "markup".to_string()
        };
        for _ in 0..3 {
            assert_eq!(
                per_view(&SLOTS, Lang::Pt, &MapView::valley(), make),
                "markup"
            );
        }
        assert_eq!(made.load(std::sync::atomic::Ordering::Relaxed), 1);
        let elsewhere = MapView {
            weight: (0.0, 0.1),
            bias: (0.0, 10.0),
        };
        per_view(&SLOTS, Lang::Pt, &elsewhere, make);
        per_view(&SLOTS, Lang::Pt, &elsewhere, make);
        assert_eq!(made.load(std::sync::atomic::Ordering::Relaxed), 3);
        static LANGS: PerLang = per_lang_slots();
        assert_eq!(per_lang(&LANGS, Lang::Zh, || "中".into()), "中");
        assert_eq!(per_lang(&LANGS, Lang::Zh, || "other".into()), "中");
    }
}
