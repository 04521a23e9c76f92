//! Everything the coach says or reads in Simplified Chinese: the prompt's sentences
//! and few-shot examples, the facts in words, and the keywords of the
//! direction check (the offline commentator's phrases are in
//! `coach::text::offline::zh`). One file per language; adding one is a
//! file like this, a `Lang` variant and a line in `coach::text::words_for`.

use super::words::{DirectionWords, FactWords, PromptWords, Words};

pub static WORDS: Words = Words {
    prompt: PromptWords {
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
    },
    // (error, earlier errors, answer) per tier: far, close, goal.
    examples: [
        // far
        &[
        (70_433.03, &[], "开局很大胆！这条线好像在瞄准月球上的房子。"),
        (13_359.08, &[20_000.0], "进步了！房子们终于快看到你的线了。"),
        ],
        // close
        &[
        (
            1_450.0,
            &[2_600.0],
            "跳得漂亮！现在小步调整偏置，看红色差距慢慢缩小。",
        ),
        (799.09, &[760.0], "退了一步。先稳住权重，再微调偏置。"),
        ],
        // goal
        &[
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
    ],
    facts: FactWords {
        weight: "权重",
        bias: "偏置",
        up: "调高",
        down: "调低",
        intro:
            "事实（可以换种说法，但不能违背）：权重 {w}，偏置 {b}；误差比最低可能值 {min} 高 {above}。",
        best_move: "最有帮助的单一调整：把{param}{way}约 {by}，误差会到约 {after}。",
        valley: "当前点在山谷里：只动一个滑块几乎没用；要{wway}权重、{bway}偏置，一起小步调整。",
        no_move: "只动一个滑块已经无法再降低误差。",
        hint: "试试把{param}{way}约 {by}。",
        valley_hint: "在山谷里：{wway}权重、{bway}偏置一起调。",
    },
    directions: DirectionWords {
        by_characters: true,
        simplified: &[
            ('調', '调'), ('點', '点'), ('權', '权'), ('減', '减'), ('誤', '误'), ('無', '无'),
            ('須', '须'), ('沒', '没'), ('別', '别'), ('壓', '压'), ('試', '试'), ('還', '还'),
            ('會', '会'), ('幫', '帮'), ('應', '应'), ('該', '该'), ('為', '为'), ('麼', '么'),
            ('斷', '断'), ('錯', '错'), ('過', '过'), ('並', '并'), ('時', '时'), ('後', '后'),
            ('繼', '继'), ('續', '续'), ('較', '较'), ('變', '变'), ('損', '损'), ('萬', '万'),
            ('經', '经'), ('縮', '缩'), ('們', '们'), ('讓', '让'), ('將', '将'), ('約', '约'),
            ('這', '这'), ('從', '从'), ('夠', '够'), ('嗎', '吗'), ('準', '准'), ('標', '标'),
            ('與', '与'), ('邊', '边'), ('極', '极'), ('習', '习'),
        ],
        // Not 和、与 (nouns: "把权重和偏置调低" moves both) nor 再 ("further").
        joins: &["然后", "并且", "并", "同时", "但是", "但", "而且", "接着", "之后", "不过"],
        weight: &["权重", "斜率"],
        bias: &["偏置", "截距", "偏移量"],
        // 偏差 is "deviation": "偏差减小了" is the error going down.
        error: &["误差", "损失", "错误", "偏差"],
        up: &[
            "提高", "增加", "调高", "加大", "升高", "增大", "上调", "往上", "调大", "抬高",
            "大一点", "大一些", "提升", "高一点", "高一些", "多一点", "多一些", "变大", "更大",
            "变差", "更差", "更糟",
        ],
        down: &[
            "降低", "减少", "调低", "减小", "下调", "往下", "调小", "压低", "减", "小一点",
            "小一些", "缩小", "低一点", "低一些", "少一点", "少一些", "变小", "更小",
        ],
        more: &[],
        less: &[],
        negations: &[
            "不要", "不用", "不必", "不该", "不应", "不能", "不需", "不再", "不会", "不宜", "不行",
            "并不", "别", "甭", "勿", "莫", "没必要", "没有必要", "无须", "无需", "用不着",
            "没用", "没有用", "停止", "避免",
        ],
        // 不 and 没 only as the verb's own prefix: not in 差不多, 不错, 不断.
        verb_negations: &["不", "没"],
        idioms: &[
            "为什么不", "何不", "不妨", "别忘了", "不要忘了", "别怕", "不错", "差不多", "不断",
            "不少", "要不", "加油", "特别", "分别", "区别", "别的", "别人",
        ],
        cutoffs: &["而不是", "而非"],
        describers: &[
            "还", "太", "有点", "有些", "偏", "已经", "已", "仍然", "依然", "仍", "还是", "比较",
        ],
        adverbs: &[],
        than: &[],
        comparative: &["比"],
        past_endings: &[],
        past_markers: &["了"],
        pronouns: &["它"],
        fillers: &["都", "一起", "也", "的", "把"],
        drops_objects: true,
    },
    // Longest accepted comment: 60 characters: a Chinese word is one or two.
    max_chars: 60,
    separator: "",
};
