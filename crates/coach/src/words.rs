//! Every word the coach says or reads, one file per language ([`en`],
//! [`pt`], [`zh`]) shaped by [`Words`], and the limits every language
//! shares; [`words_for`] picks a language's. The modules that use the words
//! (the prompt, its facts, the judge's direction and claim checks, the offline
//! commentator) read them through it. No I/O.

use vocabulary::Lang;

pub mod en;
pub mod pt;
pub mod two;
pub mod zh;

/// Everything the coach says or reads in `lang`.
pub fn words_for(lang: Lang) -> &'static Words {
    match lang {
        Lang::En => &en::WORDS,
        Lang::Pt => &pt::WORDS,
        Lang::Zh => &zh::WORDS,
    }
}

/// Models end their answer with this; everything after it is dropped.
pub const END_MARKER: &str = "|fim|";
/// The answer's length limit, in words.
pub const MAX_WORDS: usize = 20;

/// One few-shot example: (error, earlier errors, answer).
pub type Example = (f64, &'static [f64], &'static str);

/// Everything the coach says or reads in one language.
pub struct Words {
    pub prompt: PromptWords,
    /// Few-shot examples per tier (far, close, goal; `Tier as usize`): a
    /// pool of at least six, of which each prompt shows a few
    /// (`prompt::EXAMPLES_SHOWN`). Each answer is true of its own situation,
    /// advises no direction (the facts of a visitor's point are not the
    /// example's), and claims the goal only in the goal tier.
    pub examples: [&'static [Example]; 3],
    pub facts: FactWords,
    /// Lesson 2's own sentences, examples and facts ([`two`]).
    pub two: &'static two::TwoWords,
    pub directions: DirectionWords,
    pub claims: ClaimWords,
    /// Longest accepted comment, in characters.
    pub max_chars: usize,
    /// Between two sentences (none in Chinese).
    pub separator: &'static str,
    /// How the language check ([`crate::judge::language`]) tells a reply
    /// in this language.
    pub script: Script,
    /// Words of a neighbouring language that this one never writes (in
    /// Portuguese, Spanish's "las", "muy", "pero"): one of them, as a whole
    /// word in any case, makes a reply the wrong language, however short.
    pub foreign: &'static [&'static str],
}

/// How a language is told from the others.
pub enum Script {
    /// Written in Han characters.
    Han,
    /// Written in Latin letters; `whatlang` tells which language.
    Latin(whatlang::Lang),
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

/// The facts about a point in words ([`lesson::advice::Facts`]).
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

/// The keywords the direction check ([`crate::judge::directions`]) reads a comment
/// for. In a language written in words (English, Portuguese) a key is a
/// whole word (`"up"` is not in "cup" or "update"), a stem at a word's start
/// (`"rais*"`: raise, raising), an ending (`"*n't"`: don't, won't) or words
/// in a row (`"why not"`); the longest key wins where several match. In
/// Chinese a key is matched character by character, the longest first.
pub struct DirectionWords {
    /// Chinese is matched character by character (no spaces between words).
    pub by_characters: bool,
    /// Traditional characters and their Simplified forms, in which the keys
    /// are written (`調` → `调`).
    pub simplified: &'static [(char, char)],
    /// Where a clause goes on with another move ("and", "然后").
    pub joins: &'static [&'static str],
    pub weight: &'static [&'static str],
    pub bias: &'static [&'static str],
    /// The error itself: "lower the error" names no slider.
    pub error: &'static [&'static str],
    pub up: &'static [&'static str],
    pub down: &'static [&'static str],
    /// Amounts, up and down ("more", "less"): a move directly before a
    /// slider ("more bias") or alone at a part's end ("a bit more!"), but
    /// beside another move word only says how much ("lower it a bit more").
    pub more: &'static [&'static str],
    pub less: &'static [&'static str],
    /// A clause holding one of these advises nothing ("don't", "não", "别").
    pub negations: &'static [&'static str],
    /// Negations only directly before a move word (Chinese 不, 没: not in 不错).
    pub verb_negations: &'static [&'static str],
    /// Set phrases that hold a keyword but are read as none: advice despite
    /// a negation ("why not", "por que não", "不妨") and idioms ("keep it up").
    pub idioms: &'static [&'static str],
    /// The rest of the clause is what not to do ("instead of", "sem", "而不是").
    pub cutoffs: &'static [&'static str],
    /// Before a move word (adverbs between), these make it a description of
    /// the point, not advice: "is lower", "está menor", "还小一点".
    pub describers: &'static [&'static str],
    /// Words that may stand between a describer and the move word ("still").
    pub adverbs: &'static [&'static str],
    /// Directly after a move word, a comparison: "lower than", "menor que".
    pub than: &'static [&'static str],
    /// Anywhere before a move word in its clause, a comparison: "比…小一点".
    pub comparative: &'static [&'static str],
    /// Endings that put a move word in the past ("lowered", "aumentou"),
    /// checked on words a stem key found.
    pub past_endings: &'static [&'static str],
    /// Directly after a move word, the same (Chinese 了).
    pub past_markers: &'static [&'static str],
    /// Words that stand for the last slider named ("it", "-o", "它").
    pub pronouns: &'static [&'static str],
    /// Words a bare list of sliders may hold ("the", "both"): "lower the
    /// weight and the bias" moves both.
    pub fillers: &'static [&'static str],
    /// A move without its slider means the last slider named (Chinese
    /// leaves the object out: "偏置太小了，调高一些").
    pub drops_objects: bool,
}

/// The words by which a comment says the goal is reached, read by the reply
/// check (`reply::claims`) when it is not. A key is matched like a direction
/// key: whole words, `stem*`, `*ending`, words in a row (English,
/// Portuguese), or character by character (Chinese).
pub struct ClaimWords {
    /// Say it anywhere in a clause: "goal reached", "meta atingida", "达标".
    pub reached: &'static [&'static str],
    /// Say it only as a whole clause ("Conseguiu!", "成功了！"): inside a
    /// longer one they often mean less ("conseguiu melhorar").
    pub alone: &'static [&'static str],
    /// Put the error under the number after them: "below 450", "abaixo de
    /// 450", "低于 450". With the goal or less after them, a claim.
    pub below: &'static [&'static str],
    /// The same after the number: "450 以下".
    pub below_after: &'static [&'static str],
    /// A clause holding one of these claims nothing: a negation, a question
    /// or a future ("not yet", "almost", "quase", "还没", "快").
    pub negations: &'static [&'static str],
    /// A clause holding one of these states an aim, not a result, when it
    /// says "below 450": "get below 450", "the goal is below 450", "把误差降到".
    pub aims: &'static [&'static str],
    /// Say this attempt is the best so far ("best so far", "novo recorde",
    /// "目前最好"): false when it is not (`reply::progress`), unless the
    /// sentence quotes the best's own number, which states it.
    pub best: &'static [&'static str],
    /// Say this attempt beats the last ("better than", "melhorou", "进步"):
    /// false after a worse one.
    pub better: &'static [&'static str],
    /// State the current error with the number right after them ("the error
    /// is 635", "o erro é", "误差是"): that number must be the error.
    pub error_is: &'static [&'static str],
    /// After such a number, make it a distance, not the error ("635 above
    /// the goal", "acima", "以上"): then it is held only as any number.
    pub relative: &'static [&'static str],
}
