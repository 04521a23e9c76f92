//! Everything the coach says or reads in Brazilian Portuguese: the prompt's sentences
//! and few-shot examples, the facts in words, and the keywords of the
//! direction check (the offline commentator's phrases are in
//! `coach::text::offline::pt`). One file per language; adding one is a
//! file like this, a `Lang` variant and a line in `coach::text::words_for`.

use super::words::{DirectionWords, FactWords, PromptWords, Words, MAX_WORDS};

pub static WORDS: Words = Words {
    prompt: PromptWords {
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
    },
    // (error, earlier errors, answer) per tier: far, close, goal.
    examples: [
        // far
        &[
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
        // close
        &[
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
        // goal
        &[
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
    ],
    facts: FactWords {
        weight: "peso",
        bias: "viés",
        up: "aumente",
        down: "diminua",
        intro: "Fatos (diga com suas palavras, nunca os contradiga): peso {w}, viés {b}; o erro está {above} acima do menor possível, {min}.",
        best_move: "O movimento único que mais ajuda: {way} o {param} em cerca de {by}, para um erro de cerca de {after}.",
        valley: "O ponto está no vale: mexer um controle sozinho quase não ajuda; {wway} o peso e {bway} o viés juntos, aos poucos.",
        no_move: "Nenhum controle sozinho baixa mais o erro.",
        hint: "Dica: {way} o {param} em cerca de {by}.",
        valley_hint: "No vale: {wway} o peso e {bway} o viés juntos.",
    },
    directions: DirectionWords {
        by_characters: false,
        simplified: &[],
        joins: &["e", "depois", "mas", "então", "entao", "enquanto", "porém", "ou"],
        weight: &["peso", "pesos", "inclinação", "inclinacao"],
        bias: &["viés", "vies", "bias", "intercepto"],
        error: &["erro", "erros", "perda", "custo"],
        up: &[
            "aument*",
            "suba",
            "subam",
            "subir",
            "sobe",
            "sobem",
            "subindo",
            "elev*",
            "levant*",
            "acrescent*",
            "increment*",
            "adicion*",
            "pior*",
            "mais alto",
            "mais alta",
            "maior",
            "para cima",
            "pra cima",
        ],
        down: &[
            "diminu*",
            "reduz*",
            "baixe",
            "baixem",
            "baixar",
            "baixando",
            "abaixe",
            "abaixem",
            "abaixar",
            "abaixando",
            "desça",
            "desçam",
            "descer",
            "desce",
            "descendo",
            "subtra*",
            "tire",
            "tirar",
            "tirando",
            "retire",
            "corte",
            "cortar",
            "mais baixo",
            "mais baixa",
            "menor",
            "para baixo",
            "pra baixo",
        ],
        more: &["mais"],
        less: &["menos"],
        negations: &["não", "nao", "nunca", "jamais", "nem", "evit*", "pare de", "nada de"],
        verb_negations: &[],
        idioms: &[
            "por que não",
            "porque não",
            "por que nao",
            "não tenha medo de",
            "não hesite em",
            "não se esqueça de",
            "não esqueça de",
            "não custa",
            "não é nada mal",
            "mais ou menos",
        ],
        cutoffs: &["sem", "em vez de", "ao invés de", "em lugar de"],
        describers: &[
            "está", "estão", "é", "são", "ficou", "fica", "continua", "segue", "anda", "foi",
            "era", "parece", "tá", "estava",
        ],
        adverbs: &[
            "ainda", "um", "pouco", "pouquinho", "bem", "muito", "bastante", "meio", "já",
            "agora", "demais",
        ],
        than: &["que", "do que"],
        comparative: &[],
        past_endings: &[
            "ou", "iu", "ei", "ado", "ada", "ados", "adas", "ido", "ida", "idos", "idas", "ído",
            "ída", "aram", "eram", "iram",
        ],
        past_markers: &[],
        pronouns: &["-o", "-lo", "-la", "-a", "ele", "ela"],
        fillers: &[
            "o", "a", "os", "as", "seu", "sua", "também", "juntos", "juntas", "ambos", "do",
            "da", "no", "na",
        ],
        drops_objects: false,
    },
    // Longest accepted comment: the seed's rule, 20 words × 8 characters.
    max_chars: MAX_WORDS * 8,
    separator: " ",
};
