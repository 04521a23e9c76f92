//! The shape of one language's words ([`Words`]), which `en.rs`, `pt.rs` and
//! `zh.rs` fill in, and the limits every language shares. Types only: the
//! modules that use the words (prompt, facts, directions, reply, the offline
//! commentator) read them through `coach::text::words_for`.

/// Models end their answer with this; everything after it is dropped.
pub const END_MARKER: &str = "|fim|";
/// The answer's length limit, in words.
pub const MAX_WORDS: usize = 20;

/// One few-shot example: (error, earlier errors, answer).
pub type Example = (f64, &'static [f64], &'static str);

/// Everything the coach says or reads in one language.
pub struct Words {
    pub prompt: PromptWords,
    /// Few-shot examples per tier (far, close, goal; `Tier as usize`).
    pub examples: [&'static [Example]; 3],
    /// The offline commentator's phrases per tier.
    pub offline: [&'static [&'static str]; 3],
    /// "{n} attempt" and "{n} attempts": the offline phrases' `{attempts}`,
    /// so one attempt is never "1 attempts".
    pub attempts_one: &'static str,
    pub attempts_many: &'static str,
    pub facts: FactWords,
    pub directions: DirectionWords,
    /// Longest accepted comment, in characters.
    pub max_chars: usize,
    /// Between two sentences (none in Chinese).
    pub separator: &'static str,
}

/// The fixed sentences of a prompt; `{…}` are filled in.
pub struct PromptWords {
    pub role: &'static str,
    pub far: &'static str,
    pub close: &'static str,
    pub goal: &'static str,
    pub rules: &'static str,
    pub situation: &'static str,
    pub first: &'static str,
    pub improving: &'static str,
    pub worse: &'static str,
    pub stuck: &'static str,
    pub is_best: &'static str,
    pub best: &'static str,
}

/// The facts about a point in words ([`crate::advice::Facts`]).
pub struct FactWords {
    pub weight: &'static str,
    pub bias: &'static str,
    /// "raise" / "lower", as the sentences below use them.
    pub up: &'static str,
    pub down: &'static str,
    pub intro: &'static str,
    pub best_move: &'static str,
    pub valley: &'static str,
    pub no_move: &'static str,
    pub hint: &'static str,
    pub valley_hint: &'static str,
}

/// The keywords the direction check reads a comment for.
pub struct DirectionWords {
    /// Where a clause ends (besides `.,;:!?` and their full-width forms).
    pub joins: &'static [&'static str],
    pub weight: &'static [&'static str],
    pub bias: &'static [&'static str],
    /// English: whole words, or stems ending in `*` ("rais*" finds raise,
    /// raising, raised). Portuguese stems and Chinese words match anywhere.
    pub up: &'static [&'static str],
    pub down: &'static [&'static str],
    pub negations: &'static [&'static str],
    /// Keys match whole words (or `*` stems at a word's start), as in English;
    /// otherwise anywhere in the clause.
    pub whole_words: bool,
}
