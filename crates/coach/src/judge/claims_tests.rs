//! The claim checks: the goal claimed, and the goal's number named outside an aim.
use super::*;
use lesson::neuron::GOAL;

#[test]
fn claims_of_the_goal_in_three_languages() {
    for (lang, text) in [
        (Lang::En, "Below 450! Great work."),
        (Lang::En, "You're below 450 now, well done!"),
        (Lang::En, "Error under 450.00: goal reached!"),
        (Lang::En, "Goal reached!"),
        (Lang::En, "You did it! The line fits."),
        (Lang::En, "Great, you did it."),
        (Lang::En, "Perfect fit, champion."),
        (Lang::En, "Success!"),
        (Lang::En, "A win. Now nudge the bias in small steps."),
        (Lang::En, "Nice. You've trained a neuron!"),
        (Lang::En, "Less than 450, the best so far."),
        (
            Lang::En,
            "Your best move so far, and you've got your first goal!",
        ),
        (Lang::Pt, "Abaixo de 450! Parabéns."),
        (Lang::Pt, "Meta atingida, que beleza!"),
        (Lang::Pt, "Conseguiu!"),
        (Lang::Pt, "Você conseguiu, parabéns!"),
        (Lang::Pt, "O erro ficou abaixo de 450."),
        (Lang::Pt, "Você já está abaixo dos 450!"),
        (Lang::Pt, "Missão cumprida."),
        (Lang::Zh, "低于 450，这是目前最好的成绩。"),
        (Lang::Zh, "低于450了！"),
        (Lang::Zh, "误差已经在 450 以下了！"),
        (Lang::Zh, "达标了！"),
        (Lang::Zh, "恭喜，达到目标！"),
        (Lang::Zh, "成功了！"),
        (Lang::Zh, "你做到了。"),
        (Lang::Zh, "成功！"),
        (Lang::Zh, "已经降到 450 以下了。"),
    ] {
        assert!(claims_goal(text, lang, GOAL), "{lang:?} not caught: {text}");
    }
}

#[test]
fn aims_negations_and_other_numbers_claim_nothing() {
    for (lang, text) in [
        (Lang::En, "Keep going to get below 450!"),
        (Lang::En, "The goal is below 450; you're at 799.09."),
        (Lang::En, "Error now: 812.50 (goal: below 450)."),
        (Lang::En, "Not below 450 yet, but close."),
        (Lang::En, "Almost below 450!"),
        (Lang::En, "Below 450? Not yet."),
        (Lang::Zh, "低于 450？还差一点。"),
        (Lang::En, "You're nearly there, you almost did it!"),
        (Lang::En, "Aim below 450 with small steps."),
        (Lang::En, "Below 600 now. Next stop: the goal."),
        (Lang::En, "Under 1,000! Great progress."),
        (Lang::En, "Not a perfect fit yet."),
        (
            Lang::En,
            "Bold start! That line is aiming at houses on the Moon.",
        ),
        (Lang::En, "The error is lower than before."),
        (Lang::Pt, "Falta pouco para ficar abaixo de 450!"),
        (Lang::Pt, "A meta é ficar abaixo de 450."),
        (Lang::Pt, "Ainda não está abaixo de 450."),
        (Lang::Pt, "Quase conseguiu!"),
        (Lang::Pt, "Você conseguiu melhorar bastante!"),
        (Lang::Pt, "Abaixo de 800, bom avanço."),
        (Lang::Pt, "Tente chegar abaixo de 450."),
        (Lang::Pt, "O viés ainda está abaixo do ideal."),
        (Lang::Zh, "快低于 450 了！"),
        (Lang::Zh, "还没有达标，继续加油。"),
        (Lang::Zh, "目标：低于 450。"),
        (Lang::Zh, "把误差降到 450 以下吧。"),
        (Lang::Zh, "差一点就成功了！"),
        (Lang::Zh, "低于 800 了，进步很大！"),
        (Lang::Zh, "能降到 450 以下吗？"),
        (Lang::Zh, "离目标很近了！现在动作要小。"),
        (Lang::Zh, "这是成功的一步。"),
    ] {
        assert!(
            !claims_goal(text, lang, GOAL),
            "{lang:?} wrongly caught: {text}"
        );
    }
}

#[test]
fn above_the_goal_its_number_is_named_only_as_an_aim() {
    // Served by SmolLM2-135M above the goal (modelbench, 3 December): the
    // number as if reached or near, with or without a negation.
    for (lang, text) in [
        (
            Lang::Zh,
            "跳过一段偏置，看红色差距低于 450；这将他人成功的扩大。",
        ),
        (Lang::Zh, "这是目前最差的低于 450…"),
        (Lang::Pt, "Las regras mais não são abaixo de 450…"),
        (Lang::En, "Not below 450 yet, but close."),
        (Lang::En, "Almost below 450!"),
        (Lang::En, "450 is close, great work."),
        (Lang::Pt, "Ainda não está abaixo de 450."),
        (Lang::Zh, "快低于 450 了！"),
        (Lang::Zh, "误差 450.00，继续！"),
    ] {
        assert!(
            names_goal_outside_aim(text, lang, GOAL),
            "{lang:?} let through: {text}"
        );
    }
    for (lang, text) in [
        (Lang::En, "Keep going to get below 450!"),
        (Lang::En, "The goal is below 450; you're at 799.09."),
        (Lang::En, "Error now: 812.50 (goal: below 450)."),
        (Lang::En, "Aim below 450 with small steps."),
        (Lang::En, "Below 450? Not yet."),
        (Lang::En, "Below 600 now. Next stop: the goal."),
        (Lang::En, "Raise the bias by 13."),
        (Lang::En, "Error 812.50, 362.50 to go."),
        (Lang::Pt, "Tente chegar abaixo de 450."),
        (Lang::Pt, "A meta é ficar abaixo de 450."),
        (Lang::Pt, "Falta pouco para ficar abaixo de 450!"),
        (Lang::Zh, "目标：低于 450。"),
        (Lang::Zh, "要低于 450，先调偏置。"),
        (Lang::Zh, "把误差降到 450 以下吧。"),
        (Lang::Zh, "能降到 450 以下吗？"),
        (Lang::Zh, "误差 4500，离目标还远。"),
    ] {
        assert!(
            !names_goal_outside_aim(text, lang, GOAL),
            "{lang:?} thrown away: {text}"
        );
    }
}

/// Found by the property test: a Han character in an English reply
/// once stopped the tokeniser from moving on.
#[test]
fn any_script_in_any_language_is_read_to_its_end() {
    for lang in Lang::ALL {
        for text in [
            "Nice 加油 below 450!",
            "ok 𠀀 ok",
            "Ação! 한국어 450",
            "θ 12 ª",
        ] {
            let _ = claims_goal(text, lang, GOAL);
        }
    }
    assert!(claims_goal("加油, below 450!", Lang::En, GOAL));
}

#[test]
fn only_the_goal_tier_examples_claim_it() {
    for lang in Lang::ALL {
        let examples = words_for(lang).examples;
        for (_, _, answer) in examples[0].iter().chain(examples[1].iter()) {
            assert!(!claims_goal(answer, lang, GOAL), "{lang:?}: {answer}");
        }
    }
}

/// The token as text, to compare runs of tokens.
fn shown(t: &Token) -> String {
    match t {
        Token::Word(w) => w.to_string(),
        Token::Number(values) => format!("{values:?}"),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

    /// What `alone` relies on: each clause's tokens are a run of its
    /// sentence's, so a key that is a whole clause is found in the sentence.
    #[test]
    fn a_clauses_tokens_are_a_run_of_its_sentences(
        text in "[a-zA-Z0-9éã成功 .,:;!?'’\\-—…()，。]{0,40}"
    ) {
        let whole: Vec<String> = tokens(&text).iter().map(shown).collect();
        for clause in clauses(&text) {
            let part: Vec<String> = tokens(clause).iter().map(shown).collect();
            proptest::prop_assert!(
                part.is_empty() || whole.windows(part.len()).any(|w| w == part.as_slice()),
                "{clause:?} of {text:?}: {part:?} in {whole:?}"
            );
        }
    }
}
