//! The coach's text, pure and shared by every target: the request's numbers
//! ([`input`]), where they are heading ([`trend`]), the prompt ([`prompt`]),
//! the facts in words ([`facts`]), and the checks on a model's answer
//! ([`reply`], [`directions`]).
//!
//! Every word of a language sits in one file ([`en`], [`pt`], [`zh`]) shaped
//! by [`words::Words`]; [`words_for`] picks it. The offline commentator's
//! phrasebook, by situation, is [`offline`]'s. No I/O, no models, no routing.

use vocabulary::Lang;

pub mod directions;
pub mod en;
pub mod facts;
pub mod input;
pub mod prompt;
pub mod pt;
/// Server only: its language identifier and distance measure stay out of the
/// browser's bundle.
pub mod reply;
pub mod trend;
pub mod words;
pub mod zh;

/// Everything the coach says or reads in `lang`.
pub fn words_for(lang: Lang) -> &'static words::Words {
    match lang {
        Lang::En => &en::WORDS,
        Lang::Pt => &pt::WORDS,
        Lang::Zh => &zh::WORDS,
    }
}
