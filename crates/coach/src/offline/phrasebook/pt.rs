//! The offline commentator's openers in Brazilian Portuguese, by situation
//! (see [`super`] for the rules every phrase keeps and the `{…}` it may use).

use super::{Phrasebook, Row};

pub static PHRASES: Phrasebook = Phrasebook {
    first: Row {
        far: &[
            "{error} na primeira tentativa. Essa reta está avaliando casas em outro planeta.",
            "Abertura corajosa: {error}. As casas nem enxergam a sua reta ainda.",
            "Primeira tentativa, erro {error}. O neurônio está dando preço a castelos.",
            "Para começar, {error}. Há muito espaço para descer daí.",
            "Tentativa {attempt}: {error}. Em algum lugar, uma casa está rindo dessa reta.",
        ],
        middle: &[
            "Primeira tentativa: {error}. Ainda faltam {to_go}.",
            "Largada em {error}. A reta já encontrou as casas, pelo menos.",
            "{error} na primeira. As distâncias vermelhas mostram onde a reta erra.",
            "Tentativa {attempt}: {error}. As casas estão à vista, mas não ao alcance.",
            "Partindo de {error}. Agora começa o ajuste de verdade.",
        ],
        close: &[
            "Perto já na primeira tentativa: {error}, faltam só {to_go}.",
            "{error} de cara: quase lá, faltam {to_go}.",
            "Primeira tentativa e já pertinho: {error}.",
            "Quase lá logo de início: {error}.",
            "Pontaria afiada! {error} na primeira, só faltam {to_go}.",
        ],
        goal: &[
            "Abaixo de 450 logo de cara: {error}! Meta atingida em {attempts}.",
            "Meta atingida em {attempts}. Sorte de principiante ou talento puro?",
            "{error} direto! O melhor que uma reta consegue é {min}.",
            "Primeira tentativa, {error}: você treinou um neurônio num movimento só.",
            "Direto para a meta com {error}. Dá para chegar a {min}?",
        ],
    },
    new_best: Row {
        far: &[
            "Desceu para {error}, o seu menor erro até agora. As casas ainda precisam de binóculo.",
            "{error}: o seu recorde, mas a reta ainda está comprando castelos.",
            "No caminho certo: {error}. As casas continuam longe.",
            "Novo recorde, {error}. Ainda faltam {to_go}.",
            "Menor erro até aqui: {error}. A reta está saindo do espaço sideral.",
            "A tentativa {attempt} é a sua melhor: {error}. Falta muito, mas está andando.",
        ],
        middle: &[
            "Melhorou! {error} é o seu recorde até agora.",
            "Boa jogada: caiu para {error}, novo recorde.",
            "Novo recorde em {error}. Faltam {to_go}.",
            "Tentativa {attempt}, {error}: o menor até agora. As distâncias vermelhas estão encolhendo.",
            "Isso ajudou: {error}, o seu melhor até aqui.",
            "Bom passo: {error}, a melhor das suas tentativas.",
        ],
        close: &[
            "Pertinho! {error}, faltam só {to_go}.",
            "Novo recorde, {error}: quase lá.",
            "Quase! {error} é o seu recorde, faltam {to_go}.",
            "{error}! A reta já quase abraça as casas.",
            "Esquentando: {error}, o seu melhor até agora.",
            "Melhor marca em {error}. Agora é ajuste fino: faltam {to_go}.",
        ],
        goal: &[
            "Abaixo de 450 com {error}! Você treinou um neurônio à mão.",
            "{error}! Nenhuma reta consegue menos que {min}. Excelente.",
            "Meta atingida em {attempts}. O gradiente descendente ficaria orgulhoso.",
            "{error}: essa reta cai como uma luva.",
            "Conseguiu! Dá para descer até {min}?",
            "Neurônio treinado! {error} é o seu recorde.",
        ],
    },
    better: Row {
        far: &[
            "Voltou a descer, para {error}, mas o seu recorde ainda é {best}.",
            "{error}: abaixo da anterior, mas ainda acima de {best}.",
            "Recuperando: {error}. O seu recorde até agora é {best}.",
            "Desceu de novo, para {error}. As casas se lembram do {best}.",
        ],
        middle: &[
            "Melhor que a anterior: {error}. O seu recorde é {best}.",
            "{error}, melhorou. Consegue bater o seu {best}?",
            "Assim está melhor, {error}, mas {best} ainda é o recorde.",
            "De volta aos trilhos em {error}. Recorde até agora: {best}.",
            "Boa recuperação: {error}. O número a bater é {best}.",
        ],
        close: &[
            "Melhorou: {error}, faltam só {to_go}. Seu recorde é {best}.",
            "Perto de novo, em {error}. Seu recorde: {best}.",
            "Quase de volta ao seu recorde, {best}: agora {error}.",
            "Quase lá outra vez: {error}, faltam {to_go}.",
        ],
        goal: &[
            "Abaixo de 450 de novo com {error}. Seu recorde é {best}.",
            "De volta abaixo de 450: {error}. Consegue igualar o seu {best}?",
            "{error}, meta de novo. Seu recorde continua {best}.",
            "Meta atingida outra vez: {error}. O piso é {min}.",
        ],
    },
    worse: Row {
        far: &[
            "{error}: pior que a anterior. As casas estão se mudando da cidade.",
            "Ops, subiu para {error}. O seu recorde ainda é {best}.",
            "Essa foi para o lado errado: {error}.",
            "O erro cresceu para {error}. A reta está indo para a Lua.",
            "Subiu de volta para {error}. O {best} era menor.",
            "Pior, com {error}. O seu recorde até agora é {best}.",
        ],
        middle: &[
            "Pior que a anterior: {error}. Seu recorde ainda é {best}.",
            "Esse movimento custou caro: o erro subiu para {error}.",
            "Subiu para {error} desta vez. Seu recorde é {best}.",
            "O erro aumentou, para {error}. {best} continua sendo o seu recorde.",
            "Lado errado: {error}, acima da tentativa anterior.",
            "Hum, {error}. Essa foi pior; seu recorde segue em {best}.",
        ],
        close: &[
            "{error}: escorregou um pouco. Seu recorde é {best}.",
            "Um pouco pior: {error}, faltam {to_go}.",
            "Subiu para {error}. Seu recorde, {best}, mostrou o caminho.",
            "Voltou para {error}. Faltam {to_go}.",
            "Esse toque foi para o lado errado: {error}.",
        ],
        goal: &[
            "Ainda abaixo de 450 com {error}, mas {best} era menor.",
            "{error}: ainda abaixo de 450, um pouco acima do seu recorde, {best}.",
            "A meta se mantém, mas {error} ficou acima da anterior.",
            "Ainda dentro da meta com {error}. Seu recorde continua sendo {best}.",
        ],
    },
    stuck: Row {
        far: &[
            "{error} de novo. A reta está tirando uma soneca.",
            "Praticamente igual: {error}. As casas continuam esperando.",
            "Ainda {error}, mais ou menos. Pouca coisa mudou.",
            "Mal mudou: {error}. A reta está presa em órbita.",
        ],
        middle: &[
            "Praticamente igual à anterior: {error}.",
            "Ainda por volta de {error}. A reta mal se mexeu.",
            "{error} de novo, mais ou menos. Recorde até agora: {best}.",
            "Nenhuma mudança de verdade: {error}.",
            "Parado em {error}. Seu recorde é {best}.",
        ],
        close: &[
            "Ainda {error}: faltam só {to_go}.",
            "Praticamente igual, {error}. Só faltam {to_go}.",
            "Parado pertinho, em {error}.",
            "{error} de novo: falta pouco, só {to_go}.",
        ],
        goal: &[
            "Ainda abaixo de 450: {error}. O piso é {min}.",
            "Firme em {error}. Consegue descer até {min}?",
            "{error} de novo: a meta continua garantida.",
            "Mantendo-se abaixo de 450 com {error}. O menor possível é {min}.",
        ],
    },
    attempts_one: "{n} tentativa",
    attempts_many: "{n} tentativas",
};
