//! The room view's words in English, Brazilian Portuguese and Simplified
//! Chinese (the map's own words are the page's, `crate::page::i18n`).
//! Templates hold `{name}` placeholders, filled by `vocabulary::fill`
//! with numbers from `vocabulary::format`.

use vocabulary::Lang;

/// Every word of `/insights/room/CODE`, for one language.
pub struct RoomWords {
    /// The document's title: `{room}`.
    pub title: &'static str,
    /// The heading: `{room}`.
    pub heading: &'static str,
    pub lead: &'static str,
    /// Before the link learners open.
    pub join: &'static str,
    /// The count line: `{visitors}`, `{goal}`, `{waiting}`.
    pub count: &'static str,
    /// The map's name, for screen readers.
    pub map_label: &'static str,
    pub dot_trying: &'static str,
    pub dot_goal: &'static str,
    /// When the view has not heard from the server for a while.
    pub stale: &'static str,
    /// When the server records nothing.
    pub off: &'static str,
    /// The funnel's heading: `{hours}`.
    pub funnel: &'static str,
    pub step: &'static str,
    pub visitors: &'static str,
    pub share: &'static str,
    /// The funnel's rows: visits, a first attempt, then at or below 799,
    /// 600 and 500 (`{v}`), then the goal (`{v}`).
    pub rows: [&'static str; 6],
}

static EN: RoomWords = RoomWords {
    title: "Room {room}: live — Jay Trainer",
    heading: "Room {room}, live",
    lead: "Each dot is one learner in this room, where their latest try put the line; a star has reached the goal. No names: a dot is all anyone sees.",
    join: "Learners open:",
    count: "{visitors} in the room · {goal} at the goal · {waiting} yet to try",
    map_label: "The room's learners on the error landscape",
    dot_trying: "A learner, at their latest try",
    dot_goal: "A learner who reached the goal",
    stale: "No answer from the server; trying again…",
    off: "This server records nothing (JAY_INSIGHTS=off): the room stays empty.",
    funnel: "How far the room got (last {hours} hours)",
    step: "Step",
    visitors: "Learners",
    share: "Share",
    rows: [
        "Opened the page",
        "Tried once or more",
        "Error {v} or less",
        "Error {v} or less",
        "Error {v} or less",
        "Goal: error {v} or less",
    ],
};

static PT: RoomWords = RoomWords {
    title: "Sala {room} ao vivo — Jay Trainer",
    heading: "Sala {room}, ao vivo",
    lead: "Cada ponto é um aluno desta sala, onde a última tentativa dele deixou a reta; a estrela indica quem chegou à meta. Sem nomes: ninguém vê mais do que um ponto.",
    join: "Os alunos abrem:",
    count: "{visitors} na sala · {goal} na meta · {waiting} ainda sem tentar",
    map_label: "Os alunos da sala no mapa do erro",
    dot_trying: "Um aluno, na última tentativa",
    dot_goal: "Um aluno que chegou à meta",
    stale: "O servidor não responde; tentando de novo…",
    off: "Este servidor não registra nada (JAY_INSIGHTS=off): a sala fica vazia.",
    funnel: "Até onde a sala chegou (últimas {hours} horas)",
    step: "Etapa",
    visitors: "Alunos",
    share: "Proporção",
    rows: [
        "Abriram a página",
        "Tentaram ao menos uma vez",
        "Erro de até {v}",
        "Erro de até {v}",
        "Erro de até {v}",
        "Meta: erro de até {v}",
    ],
};

static ZH: RoomWords = RoomWords {
    title: "{room} 教室实时视图 — Jay Trainer",
    heading: "{room} 教室 · 实时",
    lead: "每个点代表本教室的一位学生，所在位置对应其最近一次尝试的直线；星形表示已到达目标。不显示姓名：任何人看到的都只是一个点。",
    join: "学生打开：",
    count: "教室里 {visitors} 人 · {goal} 人到达目标 · {waiting} 人尚未尝试",
    map_label: "本教室学生在误差地图上的位置",
    dot_trying: "一位学生（最近一次尝试）",
    dot_goal: "已到达目标的学生",
    stale: "服务器没有响应，正在重试……",
    off: "此服务器不记录任何数据（JAY_INSIGHTS=off），教室将一直为空。",
    funnel: "本教室的进度（最近 {hours} 小时）",
    step: "阶段",
    visitors: "人数",
    share: "占比",
    rows: [
        "打开了页面",
        "至少尝试过一次",
        "误差不超过 {v}",
        "误差不超过 {v}",
        "误差不超过 {v}",
        "目标：误差不超过 {v}",
    ],
};

/// The room view's words in `lang`.
pub fn words(lang: Lang) -> &'static RoomWords {
    match lang {
        Lang::En => &EN,
        Lang::Pt => &PT,
        Lang::Zh => &ZH,
    }
}
