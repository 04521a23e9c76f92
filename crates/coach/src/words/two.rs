//! What the coach says of lesson 2 (two inputs: area and bathrooms), one
//! file per language: the prompt's sentences that name the lesson's goal
//! and floor, its few-shot examples, and its facts in words. The rest (the
//! tiers' tone, the rules, the trend's words, the checks' keywords) is the
//! language's own, shared with lesson 1 ([`super::Words`]).

use super::Example;

pub mod en;
pub mod pt;
pub mod zh;

/// Lesson 2's words in one language.
pub struct TwoWords {
    pub role: &'static str,
    pub goal: &'static str,
    /// `{error}`, `{attempt}`, `{direction}`, `{best}`.
    pub situation: &'static str,
    /// Per tier (far, close, goal), at least six, as lesson 1's: each true of
    /// its own situation, advising no direction, the goal only in its tier.
    pub examples: [&'static [Example]; 3],
    /// The three parameters as a sentence names them (w1, w2, b).
    pub params: [&'static str; 3],
    /// `{w1}`, `{w2}`, `{b}`, `{above}`, `{min}`, `{alone}`.
    pub intro: &'static str,
    /// `{way}`, `{param}`, `{by}`, `{after}` (the way: the facts' up/down).
    pub best_move: &'static str,
    pub no_move: &'static str,
    /// The offline commentator's step: `{way}`, `{param}`, `{by}`.
    pub hint: &'static str,
}
