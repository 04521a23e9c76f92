//! The direction check against phrasings: a few per language, the review's
//! triggers through the whole reply check, and the corpus
//! (`corpus/{en,pt,zh}.txt`: at least 60 comments a language, each with the
//! facts' move and the verdict expected).

use super::*;
use crate::{
    input::CoachInput,
    judge::{check, Rejection},
    prompt::build,
};
use lesson::{
    advice::opposite,
    neuron::{Params, START},
};
use Param::{Bias, Weight};
use Way::{Down, Up};
#[test]
fn english_phrasings() {
    for (text, moves) in [
        ("Raise the bias by about 13!", vec![(Bias, Up)]),
        ("Nudge the bias up a little.", vec![(Bias, Up)]),
        (
            "Try lowering the weight and raising the bias together.",
            vec![(Weight, Down), (Bias, Up)],
        ),
        (
            "Bring the weight down a touch, then push the bias higher.",
            vec![(Weight, Down), (Bias, Up)],
        ),
        (
            "Decrease the bias, you're overshooting.",
            vec![(Bias, Down)],
        ),
        ("Increasing the slope should help.", vec![(Weight, Up)]),
        // Nothing to hold it to:
        ("Don't lower the bias yet!", vec![]),
        ("The error is lower now, nice!", vec![]),
        ("Move the weight and the bias together.", vec![]),
        ("Keep going, champion!", vec![]),
        ("A cup of bias.", vec![]),
    ] {
        assert_eq!(advised(text, Lang::En), moves, "{text}");
    }
}

#[test]
fn portuguese_phrasings() {
    for (text, moves) in [
        ("Aumente o viés em uns 13!", vec![(Bias, Up)]),
        ("Suba um pouco o viés.", vec![(Bias, Up)]),
        (
            "Diminua o peso e aumente o viés juntos.",
            vec![(Weight, Down), (Bias, Up)],
        ),
        ("Tente reduzir o viés, passou do ponto.", vec![(Bias, Down)]),
        ("Abaixe o peso devagar.", vec![(Weight, Down)]),
        ("Não diminua o viés agora!", vec![]),
        ("O erro ficou menor, boa!", vec![]),
    ] {
        assert_eq!(advised(text, Lang::Pt), moves, "{text}");
    }
}

#[test]
fn chinese_phrasings() {
    for (text, moves) in [
        ("把偏置调高约 13！", vec![(Bias, Up)]),
        ("试着提高偏置。", vec![(Bias, Up)]),
        ("降低权重，同时提高偏置。", vec![(Weight, Down), (Bias, Up)]),
        ("偏置减少一点，你超过了。", vec![(Bias, Down)]),
        ("快到了！把偏置再调低一点就行。", vec![(Bias, Down)]),
        ("先调高偏置，再降低权重。", vec![(Bias, Up), (Weight, Down)]),
        ("权重再小一点试试。", vec![(Weight, Down)]),
        ("别降低偏置！", vec![]),
        ("误差变小了，不错！", vec![]),
    ] {
        assert_eq!(advised(text, Lang::Zh), moves, "{text}");
    }
}

/// What a comment says about the slider the facts name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// It advises the facts' move.
    Agrees,
    /// It advises the opposite move: the reply check rejects it.
    Contradicts,
    /// It advises no move of that slider.
    Nothing,
}

/// One corpus line: the facts' move, the verdict expected, the comment.
struct Case {
    line: usize,
    param: Param,
    way: Way,
    verdict: Verdict,
    text: &'static str,
}

fn corpus(lang: Lang) -> &'static str {
    match lang {
        Lang::En => include_str!("corpus/en.txt"),
        Lang::Pt => include_str!("corpus/pt.txt"),
        Lang::Zh => include_str!("corpus/zh.txt"),
    }
}

/// The corpus's lines (`facts | verdict | comment`; `#` starts a comment).
fn cases(lang: Lang) -> Vec<Case> {
    corpus(lang)
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let fields: Vec<&str> = l.splitn(3, '|').map(str::trim).collect();
            let [facts, verdict, text] = fields[..] else {
                panic!("{lang:?} line {}: not `facts | verdict | comment`", i + 1)
            };
            let (param, way) = match facts {
                "weight up" => (Weight, Up),
                "weight down" => (Weight, Down),
                "bias up" => (Bias, Up),
                "bias down" => (Bias, Down),
                other => panic!("{lang:?} line {}: facts {other:?}", i + 1),
            };
            let verdict = match verdict {
                "agrees" => Verdict::Agrees,
                "contradicts" => Verdict::Contradicts,
                "nothing" => Verdict::Nothing,
                other => panic!("{lang:?} line {}: verdict {other:?}", i + 1),
            };
            Case {
                line: i + 1,
                param,
                way,
                verdict,
                text,
            }
        })
        .collect()
}

/// What the check reads `text` to say about moving `param`.
fn verdict(text: &str, lang: Lang, param: Param, way: Way) -> Verdict {
    let moves = advised(text, lang);
    if moves.contains(&(param, opposite(way))) {
        Verdict::Contradicts
    } else if moves.contains(&(param, way)) {
        Verdict::Agrees
    } else {
        Verdict::Nothing
    }
}

#[test]
fn the_corpus_is_read_as_its_verdicts_say_in_every_language() {
    let mut report = String::new();
    let mut all_right = true;
    for lang in Lang::ALL {
        let cases = cases(lang);
        assert!(cases.len() >= 60, "{lang:?}: only {} cases", cases.len());
        let wrong: Vec<String> = cases
            .iter()
            .filter_map(|c| {
                let got = verdict(c.text, lang, c.param, c.way);
                (got != c.verdict).then(|| {
                    format!(
                        "  line {}: {:?} expected, read {got:?}: {}\n",
                        c.line, c.verdict, c.text
                    )
                })
            })
            .collect();
        let right = cases.len() - wrong.len();
        report += &format!(
            "{lang:?}: {right}/{} right ({:.1}%)\n{}",
            cases.len(),
            100.0 * right as f64 / cases.len() as f64,
            wrong.concat()
        );
        all_right &= wrong.is_empty();
    }
    assert!(all_right, "corpus accuracy:\n{report}");
}

/// The security review's triggers (M4), through the whole reply check with
/// the facts of two points: the guide's start (raise the bias by about 13)
/// and w 0.1, b 300 (lower the bias).
#[test]
fn the_reviews_triggers_are_judged_right_with_the_real_facts() {
    let prompt = |lang, params: Params| {
        build(&CoachInput {
            error: params.error(),
            attempts: vec![],
            params: Some(params),
            lesson: lesson::lessons::Which::One,
            two: None,
            model: None,
            lang,
        })
    };
    let high = Params::new(0.1, 300.0);
    for (lang, params, text) in [
        (Lang::Pt, START, "O viés ainda está abaixo do ideal."),
        (Lang::Pt, high, "Subtraia uns 137 do viés."),
        (Lang::Pt, START, "Descubra o viés certo."),
        (Lang::En, START, "You shouldn't lower the bias."),
        (Lang::En, START, "Don’t lower the bias."),
        (Lang::En, START, "Lowering the bias won't help."),
        (
            Lang::En,
            START,
            "Your bias is still lower than it should be.",
        ),
        (Lang::En, high, "Address the bias next."),
        (Lang::Zh, START, "偏差减小了"),
        (Lang::Zh, START, "没必要调低偏置"),
        (Lang::Zh, START, "无须降低偏置"),
        (Lang::Zh, START, "不要把权重和偏置调低"),
        (Lang::Zh, START, "偏置还小一点"),
    ] {
        assert_eq!(
            check(text, &prompt(lang, params)).as_deref(),
            Ok(text),
            "{lang:?}"
        );
    }
    for (lang, text) in [
        (Lang::Zh, "偏置再调低一点就差不多了"),
        (Lang::Zh, "偏置再调低一点就不错"),
        (Lang::Zh, "把偏置調低一點"),
        (Lang::En, "Don't worry — lower the bias!"),
        (Lang::En, "Don't worry - lower the bias!"),
    ] {
        assert_eq!(
            check(text, &prompt(lang, START)),
            Err(Rejection::Contradicts("lower the bias".into())),
            "{lang:?}: {text}"
        );
    }
    assert_eq!(
        check("O viés em 1.234,56 precisa subir.", &prompt(Lang::Pt, high)),
        Err(Rejection::Contradicts("raise the bias".into()))
    );
}
