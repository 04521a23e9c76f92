//! The reply check as a whole: the cleanup, the limits, and the order of
//! the checks (each check's own cases are in its module).

use super::{
    clean::{strip_role_tag, PASSES, ROLE_TAGS},
    *,
};
use crate::{
    input::CoachInput,
    prompt::{build, build_drawn},
};
use lesson::neuron::{Params, START};

/// Sentences that say nothing to judge and no run of words twice, to make
/// an answer long (a repeated filler now reads as `repeats itself`).
const EN_FILLER: [&str; 8] = [
    " Look at the chart.",
    " Each house is a dot.",
    " Your line crosses them.",
    " Think about slopes.",
    " Patience pays off here.",
    " Small steps help.",
    " Watch every number.",
    " Learning takes time.",
];
const ZH_FILLER: [&str; 8] = [
    "看看图表。",
    "每个点是一栋房子。",
    "直线会越来越准。",
    "别着急，慢慢来。",
    "耐心是训练神经元的关键。",
    "每一步都让你更了解误差的形状。",
    "房价和面积有关系。",
    "试着想想斜率的意义。",
];

fn prompt(lang: Lang) -> Prompt {
    build(&CoachInput::at(812.0, &[900.0], lang))
}

#[test]
fn keeps_the_text_before_the_first_marker() {
    let p = prompt(Lang::En);
    assert_eq!(
        check("Nudge the bias! |fim| and then more |fim|", &p).unwrap(),
        "Nudge the bias!"
    );
    assert_eq!(
        check("  Nudge the bias!  ", &p).unwrap(),
        "Nudge the bias!",
        "no marker"
    );
    assert_eq!(check("|fim| late text", &p), Err(Rejection::Empty));
}

#[test]
fn drops_a_marker_cut_short_at_the_end() {
    let p = prompt(Lang::En);
    for raw in [
        "Nudge the bias! |fim",
        "Nudge the bias! |fi",
        "Nudge the bias!|f  ",
    ] {
        assert_eq!(check(raw, &p).as_deref(), Ok("Nudge the bias!"), "{raw:?}");
    }
    assert_eq!(check("a | b", &p).as_deref(), Ok("a | b"));
}

#[test]
fn strips_quotes_tags_echoes_and_reasoning() {
    let p = prompt(Lang::En);
    assert_eq!(
        check("\"Almost there!\"|fim|", &p).unwrap(),
        "Almost there!"
    );
    assert_eq!(
        check("Assistant: “Almost there!” |fim|", &p).unwrap(),
        "Almost there!"
    );
    assert_eq!(
        check("<|assistant|>\nAlmost there!<|end|>", &p).unwrap(),
        "Almost there!"
    );
    assert_eq!(
        check("<think>the user wants…</think> Almost there! |fim|", &p).unwrap(),
        "Almost there!"
    );
    assert_eq!(
        check("<think>never closed, rambling", &p),
        Err(Rejection::Empty)
    );
    let echoed = format!(
        "<|user|>\n{}<|end|>\n<|assistant|>\nKeep going! |fim|",
        p.user
    );
    assert_eq!(check(&echoed, &p).unwrap(), "Keep going!");
    assert_eq!(
        check("Line one\n\nline two |fim|", &p).unwrap(),
        "Line one line two"
    );
}

#[test]
fn role_tags_are_stripped_in_any_ascii_case_and_any_script() {
    let p = prompt(Lang::En);
    for raw in ["ASSISTANT: Almost!", "Coach:Almost!", "ReSpOnSe: 'Almost!'"] {
        assert_eq!(check(raw, &p).unwrap(), "Almost!", "{raw}");
    }
    let pt = prompt(Lang::Pt);
    assert_eq!(
        check("Treinador: Ação, quase lá!", &pt).unwrap(),
        "Ação, quase lá!"
    );
    let zh = prompt(Lang::Zh);
    assert_eq!(check("教练：「快到了！」", &zh).unwrap(), "快到了！");
    assert_eq!(check("回答：教练：加油", &zh).unwrap(), "加油");
    // Not a tag: kept whole.
    assert_eq!(
        check("İstanbul: assistant: go", &p).unwrap(),
        "İstanbul: assistant: go"
    );
}

/// The old rule lower-cased the text, matched the tag there, and sliced the
/// original at the tag's length. With a tag holding a `k`, the Kelvin sign
/// `K` (3 bytes, lower case `k`, 1 byte) put that offset inside a
/// character: `"a\u{212A}: hi"` with the tag `"ak:"` panicked there.
#[test]
fn tag_matching_never_slices_inside_a_character() {
    assert_eq!(strip_role_tag("a\u{212A}: hi", &["ak:"]), None);
    assert_eq!(strip_role_tag("AK: hi", &["ak:"]), Some(" hi"));
    assert_eq!(strip_role_tag("İ: hi", &["i:", "i\u{307}:"]), None);
    assert_eq!(
        strip_role_tag("教", &["教练："]),
        None,
        "shorter than the tag"
    );
    assert_eq!(
        strip_role_tag("教练", &["教x"]),
        None,
        "the tag's end inside a character"
    );
    assert_eq!(strip_role_tag("", &ROLE_TAGS), None);
}

#[test]
fn rejects_empty_and_long_answers() {
    let p = prompt(Lang::En);
    assert_eq!(check("", &p), Err(Rejection::Empty));
    assert_eq!(check("  \"\"  |fim|", &p), Err(Rejection::Empty));
    let long = "word ".repeat(40);
    assert!(matches!(
        check(&long, &p),
        Err(Rejection::TooLong { max: 160, .. })
    ));
    let exactly = "a".repeat(160);
    assert!(check(&exactly, &p).is_ok());
    let zh = prompt(Lang::Zh);
    // One long sentence, so that nothing can be salvaged from 61 characters.
    let han: String = ZH_FILLER.concat().replace('。', "，");
    assert!(han.chars().count() > 61);
    let first = |n: usize| han.chars().take(n).collect::<String>();
    assert!(matches!(
        check(&first(61), &zh),
        Err(Rejection::TooLong { max: 60, .. })
    ));
    assert_eq!(check(&first(60), &zh), Ok(first(60)));
}

/// An upstream may send 64 KiB of role tags (`coach:coach:…`): the
/// cleanup takes a bounded number of passes over it, not one per tag.
#[test]
fn cleaning_64_kib_of_tags_takes_a_few_passes_not_one_per_tag() {
    let p = prompt(Lang::En);
    let tags = "coach:".repeat(64 * 1024 / 6);
    let passes = |raw: &str| {
        PASSES.set(0);
        let result = check(raw, &p);
        (result, PASSES.get())
    };
    let (result, n) = passes(&tags);
    assert_eq!(result, Err(Rejection::Empty));
    assert!(n <= 8, "{n} passes over a 64 KiB answer");
    let (result, n) = passes(&format!("{tags} Almost there! |fim|"));
    assert_eq!(result.as_deref(), Ok("Almost there!"));
    assert!(n <= 8, "{n} passes");
    let mixed = format!("{}Go!", "\"Coach: 'assistant: «".repeat(2000));
    let (result, n) = passes(&mixed);
    assert_eq!(result.as_deref(), Ok("Go!"));
    assert!(n <= 8, "{n} passes");
}

fn at(error: f64, attempts: &[f64], params: Option<Params>, lang: Lang) -> Prompt {
    build(&CoachInput {
        error,
        attempts: attempts.to_vec(),
        params,
        lesson: lesson::lessons::Which::One,
        two: None,
        model: None,
        lang,
    })
}

/// Each example is a fine answer to its own situation: the right language,
/// within the limit, no goal claimed short of it, no number it does not
/// state, and no direction at all (the example's facts are not the
/// visitor's). Only the copy check stands in its way, as it should.
#[test]
fn every_example_passes_every_check_but_the_copy_in_its_own_situation() {
    for lang in Lang::ALL {
        for (tier, pool) in words_for(lang).examples.iter().enumerate() {
            for (error, history, answer) in pool.iter() {
                let p = at(*error, history, None, lang);
                assert_eq!(p.tier as usize, tier, "{answer}");
                assert!(answer.chars().count() <= max_chars(lang), "{answer}");
                assert!(!language::wrong(answer, lang), "{answer}");
                if p.tier != Tier::Goal {
                    assert!(
                        !claims::claims_goal(answer, lang, lesson::neuron::GOAL),
                        "{answer}"
                    );
                }
                assert_eq!(numbers::misquoted(answer, &p.figures), None, "{answer}");
                assert_eq!(directions::advised(answer, lang), [], "{answer}");
                assert_eq!(check(answer, &p), Err(Rejection::CopiesExample));
            }
        }
    }
}

/// The replies of SmolLM2-135M that the issue quotes, judged.
#[test]
fn the_issues_replies_are_judged() {
    // Word for word: a copy, whichever two examples the prompt shows.
    let copy = "A step back. Hold the weight steady and fine-tune the bias.";
    for draw in 0..30 {
        let p = build_drawn(
            &CoachInput {
                error: 812.0,
                attempts: vec![790.0],
                params: None,
                lesson: lesson::lessons::Which::One,
                two: None,
                model: None,
                lang: Lang::En,
            },
            draw,
        );
        assert_eq!(
            check(copy, &p),
            Err(Rejection::CopiesExample),
            "draw {draw}"
        );
        assert_eq!(
            check(
                "A step back. Hold the weight steady and fine-tune your bias!",
                &p
            ),
            Err(Rejection::CopiesExample)
        );
    }
    // The goal claimed at 13,359.09.
    let far = at(13_359.09, &[20_000.0], None, Lang::Zh);
    assert_eq!(
        check("低于 450，这是目前最好的成绩。", &far),
        Err(Rejection::ClaimsGoal)
    );
    assert_eq!(
        check("这是目前最好的成绩，继续加油！", &far).as_deref(),
        Ok("这是目前最好的成绩，继续加油！")
    );
    // The error misquoted.
    let start = at(799.09, &[], Some(START), Lang::En);
    assert_eq!(
        check("The error is 79.9. Raise the bias!", &start),
        Err(Rejection::MisquotesNumber)
    );
    for fine in [
        "The error is 799.09. Raise the bias by about 13!",
        "Error 799.1: raise the bias by 12.8 to reach about 635.",
        "About 800 now, 351.8 above the floor. Bias up by 13!",
    ] {
        assert_eq!(check(fine, &start).as_deref(), Ok(fine));
    }
    // The two longest replies: their first sentences are served.
    let first = "The error is 799.09. The next move is to raise the bias by 13.";
    let long = format!(
        "{first} After that, keep an eye on the weight as well, since the line \
         still misses the largest house by a wide margin. Small steps, patience and \
         a steady hand will bring the error down towards the goal in no time at all."
    );
    assert!(long.chars().count() >= 250, "{}", long.chars().count());
    assert_eq!(check(&long, &start).as_deref(), Ok(first));
}

/// What a salvage keeps is judged like any answer; what it leaves out is not.
#[test]
fn a_salvaged_answer_is_judged_too() {
    let start = at(799.09, &[], Some(START), Lang::En);
    let rest = EN_FILLER.concat();
    // Portuguese after a Portuguese start: a mixed text is no language's
    // for sure, and the check gives the benefit of the doubt.
    let resto = " Olhe o gráfico. Cada casa é um ponto. Pense na inclinação. \
                 Paciência ajuda muito aqui. Passos pequenos funcionam bem.";
    for (head, why, rest) in [
        ("Below 450, well done!", Rejection::ClaimsGoal, &*rest),
        (
            "Lower the bias a lot.",
            Rejection::Contradicts("lower the bias".into()),
            &*rest,
        ),
        ("The error is 79.9.", Rejection::MisquotesNumber, &*rest),
        (
            "Um passo atrás, segure o peso e refine o viés.",
            Rejection::WrongLanguage,
            resto,
        ),
        (
            "A step back. Hold the weight steady and fine-tune the bias.",
            Rejection::CopiesExample,
            &*rest,
        ),
    ] {
        assert_eq!(check(&format!("{head}{rest}"), &start), Err(why), "{head}");
    }
    // A wrong claim after the cut is not read.
    let kept = format!("Raise the bias a bit!{}", EN_FILLER[..6].concat());
    assert_eq!(kept.chars().count(), 147, "a seventh would pass 160");
    assert_eq!(
        check(&format!("Raise the bias a bit!{rest} Below 450!"), &start),
        Ok(kept)
    );
    let zh = at(799.09, &[], Some(START), Lang::Zh);
    let long = format!("把偏置调高约 13。{}", ZH_FILLER.concat());
    assert_eq!(
        check(&long, &zh).as_deref(),
        Ok(format!("把偏置调高约 13。{}", ZH_FILLER[..5].concat()).as_str())
    );
}

/// English to a Portuguese or Chinese visitor, Portuguese to an English one.
#[test]
fn answers_in_another_language_are_rejected_and_short_ones_pass() {
    let good = [
        (Lang::En, "Nice!"),
        (Lang::Pt, "Boa! Suba o viés."),
        (Lang::Pt, "Quase lá!"),
        (Lang::Zh, "加油！"),
        // No letters, in no language (above the goal, its number alone
        // would name it as if reached: `claims`).
        (Lang::En, "812! 🎉"),
    ];
    for (lang, text) in good {
        assert_eq!(check(text, &prompt(lang)).as_deref(), Ok(text), "{lang:?}");
    }
    for (lang, text) in [
        (
            Lang::Pt,
            "Nice jump! Now take small steps and watch the gaps.",
        ),
        (Lang::Zh, "Keep going, you are close!"),
        (Lang::En, "Belo salto! Agora passos pequenos, com calma."),
    ] {
        assert_eq!(
            check(text, &prompt(lang)),
            Err(Rejection::WrongLanguage),
            "{lang:?}: {text}"
        );
    }
}
