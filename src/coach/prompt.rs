//! The prompt for one attempt: pure functions, no I/O.
//!
//! Following the seed, a prompt carries only the instruction and the few-shot
//! examples of the tier that applies (small models follow far better when the
//! context holds nothing else), the trend of the visitor's history, a limit of
//! [`MAX_WORDS`] words and the end marker [`END_MARKER`], after which small models
//! tend to ramble. The numbers in it are the parsed ones, never request text.

use super::{input::CoachInput, Lang, Tier};
use crate::{advice::Facts, format::grouped_in, i18n::fill};

/// Models end their answer with this; everything after it is dropped.
pub const END_MARKER: &str = "|fim|";
/// The answer's length limit, in words.
pub const MAX_WORDS: usize = 20;

/// Where the visitor's errors are heading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    First,
    Improving,
    Worse,
    Stuck,
}

/// The history, summed up for the prompt.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trend {
    /// Attempts so far, the current one included.
    pub attempts: usize,
    pub direction: Direction,
    /// Lowest error so far, the current one included.
    pub best: f64,
    /// The current attempt is the best so far.
    pub is_best: bool,
}

impl Trend {
    /// `history` holds the earlier errors, oldest first.
    pub fn of(error: f64, history: &[f64]) -> Self {
        let direction = match history.last() {
            None => Direction::First,
            Some(&previous) if (error - previous).abs() <= (previous * 0.005).max(0.5) => {
                Direction::Stuck
            }
            Some(&previous) if error < previous => Direction::Improving,
            Some(_) => Direction::Worse,
        };
        let earlier_best = history.iter().copied().fold(f64::INFINITY, f64::min);
        Self {
            attempts: history.len() + 1,
            direction,
            best: earlier_best.min(error),
            is_best: error < earlier_best,
        }
    }
}

/// A chat-shaped prompt: system text, few-shot pairs, the question.
#[derive(Clone, Debug, PartialEq)]
pub struct Prompt {
    /// Fixed per language and tier: written once ([`fixed`]).
    pub system: &'static str,
    /// (user, assistant) pairs; each assistant turn ends with [`END_MARKER`].
    /// Fixed per language and tier too.
    pub examples: &'static [(String, String)],
    pub user: String,
    pub lang: Lang,
    pub tier: Tier,
    /// The facts about the point, when the caller gave weight and bias: stated
    /// in the question, and the answer is held to them ([`super::reply`]).
    pub facts: Option<Facts>,
}

/// The parts of a prompt that depend only on the language and the tier.
struct Fixed {
    system: String,
    examples: Vec<(String, String)>,
}

/// [`Fixed`] for `lang` and `tier`, written on first use and kept: a request
/// only writes its own question.
fn fixed(lang: Lang, tier: Tier) -> &'static Fixed {
    // `Lang::ALL` and `Tier::ALL` list the variants in declaration order, so
    // `as usize` indexes them (checked by a test).
    static ALL: std::sync::LazyLock<[[Fixed; 3]; 3]> = std::sync::LazyLock::new(|| {
        Lang::ALL.map(|lang| Tier::ALL.map(|tier| write_fixed(lang, tier)))
    });
    &ALL[lang as usize][tier as usize]
}

/// Builds the prompt for a validated input.
pub fn build(input: &CoachInput) -> Prompt {
    let tier = Tier::of(input.error);
    let trend = Trend::of(input.error, &input.attempts);
    let fixed = fixed(input.lang, tier);
    let facts = input.params.map(Facts::of);
    let mut user = situation(input.lang, input.error, &trend);
    if let Some(facts) = &facts {
        user.push(' ');
        user.push_str(&super::facts::statements(input.lang, facts));
    }
    Prompt {
        system: &fixed.system,
        examples: &fixed.examples,
        user,
        lang: input.lang,
        tier,
        facts,
    }
}

fn write_fixed(lang: Lang, tier: Tier) -> Fixed {
    let text = texts(lang);
    let system = format!(
        "{} {} {}",
        text.role,
        match tier {
            Tier::Far => text.far,
            Tier::Close => text.close,
            Tier::Goal => text.goal,
        },
        fill(
            text.rules,
            &[("words", &MAX_WORDS.to_string()), ("marker", END_MARKER)]
        )
    );
    let examples = examples(lang, tier)
        .iter()
        .map(|(error, history, answer)| {
            (
                situation(lang, *error, &Trend::of(*error, history)),
                format!("{answer} {END_MARKER}"),
            )
        })
        .collect();
    Fixed { system, examples }
}

/// The user turn: the numbers and the trend, in the visitor's language.
pub fn situation(lang: Lang, error: f64, trend: &Trend) -> String {
    let text = texts(lang);
    let direction = match trend.direction {
        Direction::First => text.first,
        Direction::Improving => text.improving,
        Direction::Worse => text.worse,
        Direction::Stuck => text.stuck,
    };
    let best = if trend.is_best {
        text.is_best.to_string()
    } else {
        fill(text.best, &[("best", &grouped_in(trend.best, 2, lang))])
    };
    fill(
        text.situation,
        &[
            ("error", &grouped_in(error, 2, lang)),
            ("attempt", &trend.attempts.to_string()),
            ("direction", direction),
            ("best", &best),
        ],
    )
}

/// The fixed sentences of a prompt, per language.
struct Texts {
    role: &'static str,
    far: &'static str,
    close: &'static str,
    goal: &'static str,
    rules: &'static str,
    situation: &'static str,
    first: &'static str,
    improving: &'static str,
    worse: &'static str,
    stuck: &'static str,
    is_best: &'static str,
    best: &'static str,
}

fn texts(lang: Lang) -> &'static Texts {
    match lang {
        Lang::En => &EN,
        Lang::Pt => &PT,
        Lang::Zh => &ZH,
    }
}

static EN: Texts = Texts {
    role: "You coach a player of a tiny neural-network game: they move a weight and a bias to bring the error below 450.",
    far: "The error is far above the goal: tease the player playfully and with humour, never rudely.",
    close: "The error is getting close to the goal: give one constructive, encouraging nudge.",
    goal: "The player reached the goal (the lowest possible error is 447.29): celebrate and motivate them.",
    rules: "Answer in English, in at most {words} words, then write {marker}.",
    situation: "Error now: {error} (goal: below 450). Attempt {attempt}, {direction}; {best}.",
    first: "the first one",
    improving: "better than the last one",
    worse: "worse than the last one",
    stuck: "about the same as the last one",
    is_best: "the best so far",
    best: "the best so far was {best}",
};

static PT: Texts = Texts {
    role: "Você é o treinador de um jogo de rede neural minúscula: o jogador move um peso e um viés para levar o erro abaixo de 450.",
    far: "O erro está muito acima da meta: provoque o jogador com bom humor, sem ser grosseiro.",
    close: "O erro está chegando perto da meta: dê um empurrão construtivo e animador.",
    goal: "O jogador atingiu a meta (o menor erro possível é 447,29): comemore e motive.",
    rules: "Responda em português do Brasil, com no máximo {words} palavras, e depois escreva {marker}.",
    situation: "Erro agora: {error} (meta: abaixo de 450). Tentativa {attempt}, {direction}; {best}.",
    first: "a primeira",
    improving: "melhor que a anterior",
    worse: "pior que a anterior",
    stuck: "quase igual à anterior",
    is_best: "a melhor até agora",
    best: "a melhor até agora foi {best}",
};

static ZH: Texts = Texts {
    role: "你是一个迷你神经网络游戏的教练：玩家调整权重和偏置，要把误差降到 450 以下。",
    far: "误差离目标还很远：用幽默的方式善意地调侃玩家，不要刻薄。",
    close: "误差已经接近目标：给出一句有建设性、鼓舞人心的提示。",
    goal: "玩家达到了目标（最低可能误差是 447.29）：为他庆祝并鼓励他。",
    rules: "用简体中文回答，不超过 {words} 个词（约 40 个汉字），然后写 {marker}。",
    situation: "当前误差：{error}（目标：低于 450）。第 {attempt} 次尝试，{direction}；{best}。",
    first: "这是第一次",
    improving: "比上一次好",
    worse: "比上一次差",
    stuck: "和上一次差不多",
    is_best: "这是目前最好的成绩",
    best: "目前最好的是 {best}",
};

/// Few-shot examples: (error, earlier errors, answer) per language and tier.
type Example = (f64, &'static [f64], &'static str);

fn examples(lang: Lang, tier: Tier) -> &'static [Example] {
    match (lang, tier) {
        (Lang::En, Tier::Far) => &[
            (
                70_433.03,
                &[],
                "Bold start! That line is aiming at houses on the Moon.",
            ),
            (
                13_359.08,
                &[20_000.0],
                "Better! The houses can almost see your line from there.",
            ),
        ],
        (Lang::En, Tier::Close) => &[
            (
                1_450.0,
                &[2_600.0],
                "Nice jump! Now nudge the bias in small steps and watch the red gaps shrink.",
            ),
            (
                799.09,
                &[760.0],
                "A step back. Hold the weight steady and fine-tune the bias.",
            ),
        ],
        (Lang::En, Tier::Goal) => &[
            (
                447.29,
                &[460.0],
                "Perfect fit! 447.29 is the best any line can do. You trained a neuron!",
            ),
            (
                449.5,
                &[1_200.0],
                "Below 450! Your neuron learned. Can you squeeze out the last decimals?",
            ),
        ],
        (Lang::Pt, Tier::Far) => &[
            (
                70_433.03,
                &[],
                "Começo ousado! Essa reta está mirando em casas na Lua.",
            ),
            (
                13_359.08,
                &[20_000.0],
                "Melhorou! As casas já quase enxergam sua reta daí.",
            ),
        ],
        (Lang::Pt, Tier::Close) => &[
            (
                1_450.0,
                &[2_600.0],
                "Belo salto! Agora ajuste o viés aos poucos e veja as distâncias encolherem.",
            ),
            (
                799.09,
                &[760.0],
                "Um passo atrás. Segure o peso e refine o viés.",
            ),
        ],
        (Lang::Pt, Tier::Goal) => &[
            (
                447.29,
                &[460.0],
                "Ajuste perfeito! 447,29 é o melhor possível. Você treinou um neurônio!",
            ),
            (
                449.5,
                &[1_200.0],
                "Abaixo de 450! Seu neurônio aprendeu. Consegue tirar os últimos decimais?",
            ),
        ],
        (Lang::Zh, Tier::Far) => &[
            (70_433.03, &[], "开局很大胆！这条线好像在瞄准月球上的房子。"),
            (13_359.08, &[20_000.0], "进步了！房子们终于快看到你的线了。"),
        ],
        (Lang::Zh, Tier::Close) => &[
            (
                1_450.0,
                &[2_600.0],
                "跳得漂亮！现在小步调整偏置，看红色差距慢慢缩小。",
            ),
            (799.09, &[760.0], "退了一步。先稳住权重，再微调偏置。"),
        ],
        (Lang::Zh, Tier::Goal) => &[
            (
                447.29,
                &[460.0],
                "完美拟合！447.29 就是最优解，你亲手训练了一个神经元！",
            ),
            (
                449.5,
                &[1_200.0],
                "低于 450 了！你的神经元学会了，还能再抠几位小数吗？",
            ),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_parts_are_those_of_the_language_and_tier() {
        for (l, lang) in Lang::ALL.into_iter().enumerate() {
            assert_eq!(lang as usize, l);
            for (t, tier) in Tier::ALL.into_iter().enumerate() {
                assert_eq!(tier as usize, t);
                let fixed = fixed(lang, tier);
                let written = write_fixed(lang, tier);
                assert_eq!(
                    (&fixed.system, &fixed.examples),
                    (&written.system, &written.examples)
                );
                assert!(fixed.system.contains(texts(lang).role));
            }
        }
    }

    fn input(error: f64, attempts: &[f64], lang: Lang) -> CoachInput {
        CoachInput {
            error,
            attempts: attempts.to_vec(),
            params: None,
            model: None,
            lang,
        }
    }

    #[test]
    fn trend_reads_the_history() {
        assert_eq!(Trend::of(900.0, &[]).direction, Direction::First);
        let t = Trend::of(900.0, &[2000.0, 1000.0]);
        assert_eq!(
            (t.direction, t.attempts, t.is_best, t.best),
            (Direction::Improving, 3, true, 900.0)
        );
        let t = Trend::of(1500.0, &[2000.0, 1000.0]);
        assert_eq!(
            (t.direction, t.is_best, t.best),
            (Direction::Worse, false, 1000.0)
        );
        assert_eq!(Trend::of(1000.2, &[1000.0]).direction, Direction::Stuck);
    }

    #[test]
    fn only_the_current_tier_is_in_the_prompt() {
        let far = build(&input(13_359.08, &[], Lang::En));
        assert_eq!(far.tier, Tier::Far);
        assert!(far.system.contains("tease"));
        assert!(!far.system.contains("nudge") && !far.system.contains("celebrate"));
        assert!(far.examples.iter().all(|(_, a)| !a.contains("Perfect fit")));

        let close = build(&input(812.0, &[900.0], Lang::En));
        assert!(close.system.contains("nudge") && !close.system.contains("tease"));

        let goal = build(&input(447.29, &[812.0], Lang::En));
        assert!(goal.system.contains("celebrate") && !goal.system.contains("nudge"));
    }

    #[test]
    fn prompt_has_the_numbers_the_limit_and_the_marker() {
        let p = build(&input(812.5, &[13_359.08, 900.0], Lang::En));
        assert!(p.system.contains("20 words") && p.system.contains(END_MARKER));
        assert_eq!(p.user, "Error now: 812.50 (goal: below 450). Attempt 3, better than the last one; the best so far.");
        assert_eq!(p.examples.len(), 2);
        assert!(p
            .examples
            .iter()
            .all(|(u, a)| u.starts_with("Error now:") && a.ends_with(END_MARKER)));
    }

    #[test]
    fn every_language_and_tier_has_its_own_text() {
        for lang in Lang::ALL {
            for error in [13_359.08, 812.0, 447.29] {
                let p = build(&input(error, &[20_000.0], lang));
                assert_eq!(p.lang, lang);
                assert!(!p.examples.is_empty());
                assert!(p.system.contains(END_MARKER) && p.system.contains("20"));
                assert!(
                    !p.user.contains('{'),
                    "unfilled placeholder in {:?}",
                    p.user
                );
            }
        }
        assert!(build(&input(812.0, &[], Lang::Pt))
            .system
            .contains("português"));
        assert!(build(&input(812.0, &[], Lang::Zh))
            .system
            .contains("简体中文"));
    }
}
