//! Everything the coach says or reads in Brazilian Portuguese: the prompt's sentences
//! and few-shot examples, the facts in words, and the keywords of the
//! direction check (the offline commentator's phrases are in
//! `coach::offline::phrasebook::pt`). One file per language; adding one is a
//! file like this, a line in `coach::words::words_for` and the `Lang`
//! variant with its profile (`vocabulary::lang`).

use crate::words::{ClaimWords, DirectionWords, FactWords, PromptWords, Script, Words, MAX_WORDS};

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
    // (error, earlier errors, answer) per tier: far, close, goal. Each
    // answer fits its own situation (first, better, worse, about the same).
    examples: [
        // far
        &[
            (70_433.03, &[], "Começo ousado! Essa reta está mirando em casas na Lua."),
            (13_359.08, &[20_000.0], "Melhorou! As casas já quase enxergam sua reta daí."),
            (25_112.4, &[9_870.0], "Opa, caminho errado! Sua reta saiu de férias para as nuvens."),
            (5_480.75, &[5_470.0], "Mesmo lugar, nova tentativa. As casas já estão curiosas com o seu plano."),
            (152_220.0, &[40_000.0], "Eita! Essa reta está tão longe que as casas precisam de binóculo."),
            (3_120.55, &[8_400.0], "Grande avanço! Ainda longe, mas as casas já ouvem sua reta chegando."),
        ],
        // close
        &[
            (1_450.0, &[2_600.0], "Belo salto! Agora ajuste o viés aos poucos e veja as distâncias encolherem."),
            (799.09, &[760.0], "Um passo atrás. Segure o peso e refine o viés."),
            (1_180.0, &[1_900.0], "Esquentando! Daqui em diante, passos pequenos e pacientes."),
            (612.4, &[614.0], "Quase igual à anterior. Que tal dar uma chance ao outro controle?"),
            (905.3, &[], "Bela primeira tentativa! A distância vermelha mais longa mostra onde a reta erra mais."),
            (530.2, &[560.0], "Pertinho da meta! Agora movimentos miúdos, um controle de cada vez."),
        ],
        // goal
        &[
            (447.29, &[460.0], "Ajuste perfeito! 447,29 é o melhor possível. Você treinou um neurônio!"),
            (449.5, &[1_200.0], "Abaixo de 450! Seu neurônio aprendeu. Consegue tirar os últimos decimais?"),
            (448.1, &[452.0], "Meta atingida! Sua reta passa bem pelo meio das casas."),
            (447.8, &[447.9], "Firme como rocha. Você está a um fio da melhor reta possível."),
            (449.9, &[], "Na meta logo de primeira? Isso é que é intuição!"),
            (448.6, &[2_300.0, 900.0], "Conseguiu! O gradiente descendente ficaria orgulhoso dessa descida feita à mão."),
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
        valley_hint: "No vale: {wway} o peso e {bway} o viés ao mesmo tempo.",
    },
    two: &crate::words::two::pt::WORDS,
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
    claims: ClaimWords {
        reached: &[
            "meta atingida", "meta alcançada", "meta batida", "meta cumprida",
            "atingiu a meta", "alcançou a meta", "bateu a meta", "cumpriu a meta",
            "chegou à meta", "chegou na meta", "chegou lá", "objetivo alcançado",
            "objetivo atingido", "atingiu o objetivo", "alcançou o objetivo", "missão cumprida",
            "ajuste perfeito", "neurônio treinado", "treinou um neurônio", "treinou o neurônio",
            "treinou seu neurônio", "você venceu", "você ganhou",
        ],
        alone: &[
            "conseguiu", "você conseguiu", "conseguimos", "sucesso", "vitória", "chegou",
            "venceu", "ganhou",
        ],
        below: &[
            "abaixo de", "abaixo dos", "menos de", "menor que", "menor do que", "inferior a",
            "debaixo de", "embaixo de", "sob",
        ],
        below_after: &[],
        negations: &[
            "não", "nao", "nunca", "jamais", "nem", "ainda", "quase", "falt*", "perto", "logo",
            "se", "quando", "até", "pode", "podemos", "consegue", "conseguir", "vai", "vamos",
            "será",
        ],
        aims: &[
            "meta", "objetivo", "alvo", "para", "pra", "chegar", "chegue", "ficar", "fique",
            "levar", "leve", "traga", "trazer", "descer", "desça", "baixar", "baixe", "ir",
            "precis*", "tent*", "busque", "mire", "mirar", "rumo", "bora", "coloque",
            "colocar", "deixe", "deixar",
        ],
        best: &[
            "melhor até agora", "melhor até aqui", "melhor resultado", "melhor tentativa",
            "melhor resultado até agora", "melhor tentativa até agora",
            "melhor marca", "melhor erro", "novo recorde", "recorde", "menor até agora",
            "menor erro",
        ],
        better: &[
            "melhorou", "melhorando", "melhor que", "melhor do que", "bem melhor", "muito melhor",
            "progresso", "progrediu", "evoluiu", "evolução", "caiu", "baixou", "diminuiu",
            "menor que antes", "menor do que antes",
        ],
        error_is: &[
            "erro é", "erro está em", "erro agora é", "erro atual é", "erro agora está em",
            "erro agora", "erro atual", "erro ficou em", "erro está",
        ],
        relative: &[
            "acima", "abaixo", "longe", "de", "do", "da", "a", "mais", "menos", "pontos",
            "vezes", "passos", "por",
        ],
    },
    // Longest accepted comment: the original server's rule, 20 words × 8 characters.
    max_chars: MAX_WORDS * 8,
    separator: " ",
    script: Script::Latin(whatlang::Lang::Por),
    // Spanish, which small models slip into ("Las regras mais não são abaixo
    // de 450", SmolLM2-135M): words Portuguese does not write, spelled as
    // Spanish spells them (never "esta", "está", "peso", "cerca", "grande",
    // which both languages write).
    foreign: &[
        "el", "los", "las", "del", "muy", "mucho", "mucha", "muchos", "pero", "hay", "eso",
        "esto", "ahora", "también", "bien", "bueno", "buena", "mejor", "nuevo", "nueva",
        "poco", "aquí", "cuando", "donde", "usted", "tienes", "puedes", "eres", "sigue",
        "sesgo", "hacia", "entonces", "todavía", "regla", "reglas", "error", "errores",
        "más", "gran", "casi", "sí", "hola", "gracias", "paso", "pasos", "bajar", "baja",
        "sube", "intenta", "lejos", "ya",
    ],
};
