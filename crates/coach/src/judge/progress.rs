//! Whether a reply praises progress the visitor did not make: "the best so
//! far" when an earlier attempt was better, "better than the last one" right
//! after a worse one or on the first attempt. A 135M model said "这是目前最好的成绩" ("the best so
//! far") at 1,457.42 after 635.29 (docs/benchmarks/model.md).
//!
//! Read sentence by sentence with the language's [`ClaimWords`] `best` and
//! `better` keys, matched as the goal claims match theirs
//! ([`super::claims`]). A question, a negation or a future ("not your best
//! yet", "还没", "会更好") and a stated aim ("try for a new best", "keep
//! improving") claim nothing; nor does a sentence that quotes the best's
//! own number ("your best so far is 635.29", "11,355.63 那次更低"): it is
//! about that attempt, and the number check holds it. Pure.

use super::{claims::Reading, numbers::numbers};
use crate::prompt::trend::{Direction, Trend};
#[cfg(test)]
use crate::words::words_for;
#[cfg(test)]
use vocabulary::Lang;

/// Whether `text` says this attempt is the best, or better than the last,
/// when `trend` says it is not.
#[cfg(test)]
pub fn claims_progress(text: &str, lang: Lang, trend: &Trend) -> bool {
    claims_progress_in(&Reading::of(text, lang), trend)
}

/// [`claims_progress`] of a reply already read.
pub(crate) fn claims_progress_in(reading: &Reading, trend: &Trend) -> bool {
    let not_best = !trend.is_best;
    // Nothing to be better than on a first attempt ("Melhorou!" at the first
    // 13,359.09), and after a worse one "better" is false.
    let worse = matches!(trend.direction, Direction::Worse | Direction::First);
    if !not_best && !worse {
        return false;
    }
    reading.any(|s| {
        if s.is_question() {
            return false;
        }
        let w = s.words;
        let best = s.find(w.best);
        let better = s.find(w.better);
        // A negation or an aim inside a key ("até" in "melhor até agora")
        // is part of the claim, not a word against it.
        let inside = |&(at, _): &(usize, usize)| {
            best.iter()
                .chain(&better)
                .any(|&(k, n)| (k..k + n).contains(&at))
        };
        let against =
            |keys: &'static [&'static str]| s.find(keys).iter().any(|found| !inside(found));
        if against(w.negations) || against(w.aims) {
            return false;
        }
        let quotes_the_best = || {
            numbers(s.written)
                .iter()
                .any(|readings| readings.iter().any(|r| r.says(trend.best)))
        };
        !quotes_the_best() && ((not_best && !best.is_empty()) || (worse && !better.is_empty()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1,457.42 after 635.29: worse than the last, and not the best.
    fn worse() -> Trend {
        Trend::of(1457.42, &[799.09, 635.29])
    }

    /// 700 after 799.09 and 635.29: better than the last, not the best.
    fn better_not_best() -> Trend {
        Trend::of(700.0, &[635.29, 799.09])
    }

    #[test]
    fn false_praise_in_three_languages_is_caught() {
        for (lang, text) in [
            (Lang::En, "The best so far! Keep it up."),
            (Lang::En, "New record, nicely done."),
            (Lang::En, "That's better than the last one."),
            (Lang::En, "You improved a lot."),
            (Lang::En, "Great progress, the error dropped."),
            (Lang::Pt, "Melhor resultado até agora!"),
            (Lang::Pt, "Melhorou bastante, continue."),
            (Lang::Pt, "O erro caiu, bom trabalho."),
            (Lang::Pt, "Novo recorde!"),
            (Lang::Zh, "上一次差不多。这是目前最好的成绩"),
            (Lang::Zh, "进步很大！"),
            (Lang::Zh, "误差下降了，很好。"),
            (Lang::Zh, "新纪录！"),
        ] {
            assert!(claims_progress(text, lang, &worse()), "{lang:?}: {text}");
        }
    }

    #[test]
    fn a_better_attempt_that_is_not_the_best_may_be_called_better() {
        let t = better_not_best();
        assert!(!claims_progress("Better than the last one.", Lang::En, &t));
        assert!(!claims_progress("进步了！", Lang::Zh, &t));
        assert!(claims_progress("Your best attempt so far!", Lang::En, &t));
        assert!(claims_progress("Melhor tentativa até agora.", Lang::Pt, &t));
    }

    #[test]
    fn true_praise_aims_negations_and_the_best_quoted_claim_nothing() {
        let best = Trend::of(600.0, &[799.09, 635.29]);
        for (lang, text) in [
            (Lang::En, "The best so far! Keep it up."),
            (Lang::Pt, "Novo recorde, melhorou!"),
            (Lang::Zh, "这是目前最好的成绩，进步很大！"),
        ] {
            assert!(!claims_progress(text, lang, &best), "{lang:?}: {text}");
        }
        for (lang, text) in [
            (Lang::En, "Your best so far is 635.29; this one is higher."),
            (Lang::En, "Not your best yet."),
            (Lang::En, "Try for a new best: lower the bias."),
            (Lang::En, "Better than the last one?"),
            (Lang::En, "It got worse; keep improving."),
            (Lang::Pt, "Seu melhor resultado foi 635,29."),
            (Lang::Pt, "Ainda não melhorou."),
            (Lang::Zh, "目前最好的成绩是 635.29。"),
            (Lang::Zh, "还没有进步。"),
            (Lang::Zh, "调低偏置会更好。"),
        ] {
            assert!(!claims_progress(text, lang, &worse()), "{lang:?}: {text}");
        }
    }

    #[test]
    fn the_first_attempt_is_its_own_best_but_better_than_nothing() {
        let first = Trend::of(13_359.09, &[]);
        assert!(!claims_progress("The best so far!", Lang::En, &first));
        assert!(claims_progress(
            "Melhorou! As casas já quase.",
            Lang::Pt,
            &first
        ));
    }

    #[test]
    fn the_pools_examples_are_true_of_their_own_histories() {
        for lang in Lang::ALL {
            for tier in words_for(lang).examples {
                for (error, history, answer) in tier.iter() {
                    let trend = Trend::of(*error, history);
                    assert!(!claims_progress(answer, lang, &trend), "{lang:?}: {answer}");
                }
            }
        }
    }
}
