//! Which moves a comment advises: "raise the bias", "diminua o peso", "把权重调低".
//!
//! A model may rephrase the facts ([`lesson::advice`]) but not contradict them,
//! so [`crate::judge::check`] reads an answer for "raise/lower × weight/bias",
//! per language, and rejects it when the facts say that move raises the
//! error. Keyword lists (in the language files), not a parser, read as:
//!
//! - **Clauses** end at punctuation, dashes and colons ("Don't worry — lower
//!   the bias!" is two), never at a decimal point (`1.234,56`); a clause's
//!   **parts** at joins ("and", "e", "然后"). Each part is read alone.
//! - A part with a **negation** ("don't", "shouldn't", "won't help", "não",
//!   "nem", "没必要", "无须", 不 directly before the verb) advises nothing;
//!   idioms that hold one but advise ("why not", "por que não", "不妨") are
//!   no negation, nor is 不 inside 差不多, 不错 or 不断.
//! - A move word after "is", "está", "还"… or before "than", "que" (or after
//!   比, or followed by 了), or in the past ("lowered", "aumentou"), describes
//!   the point and advises nothing ("your bias is lower than it should be").
//! - After "instead of", "without", "sem", "而不是" the part says what not to do.
//! - One way in a part moves every slider it names ("把权重和偏置调低");
//!   both ways pair each move word with the noun beside it ("raise the bias to
//!   lower the error"). "The error" is no slider, and a part in which it goes
//!   up warns against its move ("lowering the bias raises the error").
//! - A move without a slider ("raise it", "baixe-o", 它; in Chinese any) means
//!   the last slider named; a bare list of sliders after a join ("and the
//!   bias") takes the move before it.
//!
//! Words are matched whole in English and Portuguese ("sub" is not in
//! "subtraia", nor "add" in "address"); Chinese Traditional characters are
//! read as Simplified. Whatever it cannot hold an answer to, it lets through.
//! The corpus in `corpus/` (tests) says how well. Pure.

mod lex;

/// The reply's goal check reads sentences the way this check does.
pub(crate) use lex::{clauses, normalise, word_matches};
use lex::{Lexeme, Noun};

use crate::words::DirectionWords;
use lesson::advice::{Param, Way};
use vocabulary::Lang;

/// The moves `text` advises, in the order it says them.
pub fn advised(text: &str, lang: Lang) -> Vec<(Param, Way)> {
    let lexicon = lex::Lexicon::of(lang);
    let w = lexicon.words;
    let text = lex::normalise(text, w);
    let mut reader = Reader::default();
    for clause in lex::clauses(&text) {
        reader.clause(&lex::lex(clause, lexicon), w);
    }
    reader.moves
}

/// What reading the parts so far leaves for the next one.
#[derive(Default)]
struct Reader {
    moves: Vec<(Param, Way)>,
    /// The last slider (or the error) named, anywhere: what "it" means.
    last_noun: Option<Noun>,
    /// The part just read was a bare list of sliders ("Bias: go higher!").
    after_bare: bool,
}

/// What a part leaves for a bare list of sliders after it in its clause.
#[derive(Clone, Copy)]
enum Carry {
    Nothing,
    Move(Way),
    Negated,
}

impl Reader {
    fn clause(&mut self, lexemes: &[Lexeme], w: &DirectionWords) {
        let mut carry = Carry::Nothing;
        for part in lexemes.split(|l| *l == Lexeme::Join) {
            carry = self.part(part, carry, w);
        }
    }

    /// Reads one part (`carry`: what the part before it in its clause moved).
    fn part(&mut self, lexemes: &[Lexeme], carry: Carry, w: &DirectionWords) -> Carry {
        let before = self.last_noun;
        // Nouns after a cutoff are named all the same ("instead of lowering
        // the bias, raise it").
        if let Some(n) = lexemes.iter().rev().find_map(noun) {
            self.last_noun = Some(n);
        }
        let cut = lexemes
            .iter()
            .position(|l| *l == Lexeme::Cutoff)
            .map_or(lexemes, |at| &lexemes[..at]);
        let part = Part::read(cut);
        let after_bare = std::mem::replace(&mut self.after_bare, part.bare);
        if part.negated {
            return Carry::Negated;
        }
        if part.moves.is_empty() {
            return match carry {
                Carry::Move(way) if part.bare => {
                    for &(_, n) in &part.nouns {
                        self.push(n, way);
                    }
                    carry
                }
                Carry::Negated if part.bare => carry,
                _ => Carry::Nothing,
            };
        }
        let pairs = if part.nouns.is_empty() {
            // A move without its slider: the last one named.
            let refers = part.pronoun || w.drops_objects || after_bare;
            match (before.filter(|_| refers), one_way(&part.moves)) {
                (Some(n), Some(way)) => vec![(n, way)],
                _ => Vec::new(),
            }
        } else {
            pair(&part.moves, &part.nouns)
        };
        // "Lowering the bias raises the error" warns against its move.
        if pairs.contains(&(Noun::Error, Way::Up)) {
            return Carry::Nothing;
        }
        for (n, way) in pairs {
            self.push(n, way);
        }
        one_way(&part.moves).map_or(Carry::Nothing, Carry::Move)
    }

    fn push(&mut self, noun: Noun, way: Way) {
        if let Noun::Slider(param) = noun {
            if !self.moves.contains(&(param, way)) {
                self.moves.push((param, way));
            }
        }
    }
}

fn noun(l: &Lexeme) -> Option<Noun> {
    match *l {
        Lexeme::Noun(n) => Some(n),
        _ => None,
    }
}

/// The way all of `moves` go, if they agree.
fn one_way(moves: &[(usize, Way)]) -> Option<Way> {
    let first = moves.first()?.1;
    moves.iter().all(|&(_, w)| w == first).then_some(first)
}

/// One part of a clause, read.
struct Part {
    negated: bool,
    /// The move words that advise (not those that describe), with their places.
    moves: Vec<(usize, Way)>,
    nouns: Vec<(usize, Noun)>,
    pronoun: bool,
    /// Only sliders and filler words: "the weight and *the bias*".
    bare: bool,
}

impl Part {
    fn read(lexemes: &[Lexeme]) -> Self {
        let mut part = Part {
            negated: false,
            moves: Vec::new(),
            nouns: Vec::new(),
            pronoun: false,
            bare: false,
        };
        for (i, l) in lexemes.iter().enumerate() {
            match *l {
                Lexeme::Negation => part.negated = true,
                Lexeme::VerbNegation => {
                    part.negated |= matches!(lexemes.get(i + 1), Some(Lexeme::Move { .. }));
                }
                Lexeme::Move { way, past } if !past && !describes(lexemes, i) => {
                    part.moves.push((i, way));
                }
                Lexeme::Noun(n) => part.nouns.push((i, n)),
                Lexeme::Pronoun => part.pronoun = true,
                _ => {}
            }
        }
        // "more bias", "a bit more!", but not "lower it a bit more".
        let alone = part.moves.is_empty();
        for (i, l) in lexemes.iter().enumerate() {
            let Lexeme::Amount(way) = *l else { continue };
            let before_noun = matches!(lexemes.get(i + 1), Some(Lexeme::Noun(_)));
            let at_end = lexemes[i + 1..]
                .iter()
                .all(|l| matches!(l, Lexeme::Filler | Lexeme::Adverb));
            if (before_noun || alone && at_end) && !describes(lexemes, i) {
                part.moves.push((i, way));
            }
        }
        part.moves.sort_by_key(|&(i, _)| i);
        part.bare = !part.nouns.is_empty()
            && lexemes
                .iter()
                .all(|l| matches!(l, Lexeme::Noun(_) | Lexeme::Filler | Lexeme::Adverb));
        part
    }
}

/// Whether the move word at `i` describes the point instead of advising a
/// move: after a describer ("is lower", adverbs between), before "than" or
/// 了, or after 比.
fn describes(lexemes: &[Lexeme], i: usize) -> bool {
    let before = lexemes[..i].iter().rev().find(|l| **l != Lexeme::Adverb);
    matches!(before, Some(Lexeme::Describer))
        || matches!(lexemes.get(i + 1), Some(Lexeme::Than | Lexeme::PastMarker))
        || lexemes[..i].contains(&Lexeme::Comparative)
}

/// The moves of a part: its one way for every noun it names, or, with both
/// ways, each move word with the noun beside it, when they alternate
/// ("降低权重和提高偏置", "raise the bias to lower the error"). Otherwise none.
fn pair(moves: &[(usize, Way)], nouns: &[(usize, Noun)]) -> Vec<(Noun, Way)> {
    if let Some(way) = one_way(moves) {
        return nouns.iter().map(|&(_, n)| (n, way)).collect();
    }
    if moves.len() != nouns.len() {
        return Vec::new();
    }
    // Places of the move words and the nouns: m0 < n0 < m1 < n1 … or the
    // other way round.
    let (mut first, mut second): (Vec<usize>, Vec<usize>) = (
        moves.iter().map(|m| m.0).collect(),
        nouns.iter().map(|n| n.0).collect(),
    );
    if second[0] < first[0] {
        std::mem::swap(&mut first, &mut second);
    }
    let alternate = (0..first.len())
        .all(|k| first[k] < second[k] && first.get(k + 1).is_none_or(|&next| second[k] < next));
    if alternate {
        moves.iter().zip(nouns).map(|(m, n)| (n.1, m.1)).collect()
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests;
