//! The credit to Jay Alammar's guide, which this page re-creates and goes
//! on from, on every page (the simulator, its embed, the insights' pages):
//! the guide and its part 2, linked, in the page's words (`credit` of the
//! server's words). Server-only markup: the browser keeps what the server
//! wrote at hydration, so it costs the WASM nothing.

/// The first post: the page's first interactives are its.
pub const GUIDE: (&str, &str) = (
    "A Visual and Interactive Guide to the Basics of Neural Networks",
    "https://jalammar.github.io/visual-interactive-guide-basics-neural-networks/",
);

/// Its part 2.
pub const PART_2: (&str, &str) = (
    "A Visual And Interactive Look at Basic Neural Network Math",
    "https://jalammar.github.io/feedforward-neural-networks-visual-interactive/",
);

/// `template` (`{guide}`, `{part2}`) with the two posts' titles as links
/// that open beside the page (in an iframe, not in the blog's frame).
#[cfg(feature = "ssr")]
pub fn markup(template: &str) -> String {
    let link = |(title, href): (&str, &str)| {
        format!(r#"<a href="{href}" target="_blank" rel="noopener"><cite>{title}</cite></a>"#)
    };
    vocabulary::fill(
        template,
        &[("guide", &link(GUIDE)), ("part2", &link(PART_2))],
    )
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;
    use crate::page::i18n::texts;
    use vocabulary::Lang;

    #[test]
    fn every_language_names_both_posts_with_their_links() {
        for lang in Lang::ALL {
            let credit = markup(texts(lang).server.credit);
            for (title, href) in [GUIDE, PART_2] {
                assert!(
                    credit.contains(&format!(r#"href="{href}""#)),
                    "{lang:?}: {credit}"
                );
                assert!(
                    credit.contains(&format!("<cite>{title}</cite>")),
                    "{lang:?}"
                );
            }
            assert!(credit.contains("Jay Alammar"), "{lang:?}: {credit}");
            assert!(
                !credit.contains('{'),
                "{lang:?}: a placeholder left: {credit}"
            );
        }
    }
}
