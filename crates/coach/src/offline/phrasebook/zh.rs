//! The offline commentator's openers in Simplified Chinese, by situation
//! (see [`super`] for the rules every phrase keeps and the `{…}` it may use).
//! Short: a comment holds at most 60 characters, the hint included.

#[cfg(test)]
use super::Keys;
use super::{Phrasebook, Row};

pub static PHRASES: Phrasebook = Phrasebook {
    first: Row {
        far: &[
            "第一次就是 {error}，这条线在给外星球的房子估价。",
            "开局误差 {error}，房子们还看不见你的线。",
            "首次尝试，误差 {error}：神经元在给城堡估价。",
            "起点 {error}，往下的空间大得很。",
            "一上来就是 {error}，某处有栋房子在偷笑。",
        ],
        middle: &[
            "第一次：{error}，还差 {to_go}。",
            "开局 {error}，线和房子总算见面了。",
            "首次误差 {error}，红色差距标出了线偏在哪里。",
            "第 {attempt} 次：{error}。房子看得见，还够不着。",
            "从 {error} 起步，真正的调整现在开始。",
        ],
        close: &[
            "第一次就很接近：{error}，只差 {to_go}。",
            "一上来就是 {error}，快到了！",
            "首次尝试就差一点：{error}。",
            "开局 {error}，就差 {to_go} 了，眼光真准！",
            "第一次就接近了：{error}。",
        ],
        goal: &[
            "第一次就低于 {goal}：{error}！{attempts}就达标。",
            "{attempts}就达标，新手运气还是真本事？",
            "一步到位，{error}！最优解是 {min}。",
            "首次尝试 {error}：一步就训练好了神经元。",
            "直奔目标，{error}。能降到 {min} 吗？",
        ],
    },
    new_best: Row {
        far: &[
            "降到 {error}，目前最低。房子们还得用望远镜看。",
            "{error}：目前最低，但这条线还在给城堡估价。",
            "方向对了：{error}。房子们还在远处。",
            "新低 {error}，还差 {to_go}。",
            "误差创新低：{error}。这条线正在离开外太空。",
            "第 {attempt} 次是最低的一次：{error}。路还长。",
        ],
        middle: &[
            "好多了！{error}，目前最好。",
            "这步走得好：降到 {error}，新纪录。",
            "新纪录 {error}，还差 {to_go}。",
            "第 {attempt} 次，{error}：目前最低，红色差距在缩小。",
            "这一下有用：{error}，目前最好。",
            "不错，{error}，你的最好成绩。",
        ],
        close: &[
            "很接近了！{error}，只差 {to_go}。",
            "新纪录 {error}：快到了。",
            "差一点！{error} 是你的最好成绩。",
            "{error}！线快贴住房子了。",
            "越来越近：{error}，目前最好。",
            "最好成绩 {error}，该微调了：还差 {to_go}。",
        ],
        goal: &[
            "误差 {error}，低于 {goal}！你亲手训练了神经元。",
            "{error}！没有哪条线能低于 {min}，太棒了。",
            "{attempts}就达标，连梯度下降都佩服。",
            "{error}：这条线贴合得刚刚好。",
            "成功了！能一路降到 {min} 吗？",
            "神经元训练完成！{error} 是你目前的最好成绩。",
        ],
    },
    better: Row {
        far: &[
            "回落到 {error}，但最好成绩还是 {best}。",
            "{error}：比上一次低，还没低过 {best}。",
            "正在挽回：{error}。目前最好的是 {best}。",
            "又降到 {error}，房子们还记得 {best}。",
        ],
        middle: &[
            "比上一次好：{error}，最好成绩是 {best}。",
            "{error}，有改善。能打破 {best} 吗？",
            "好多了，{error}，不过纪录还是 {best}。",
            "回到正轨：{error}。目前最好：{best}。",
            "漂亮的挽回：{error}。要超越的是 {best}。",
        ],
        close: &[
            "好多了：{error}，只差 {to_go}，纪录是 {best}。",
            "又接近了：{error}，纪录 {best}。",
            "快回到最好成绩 {best} 了：现在 {error}。",
            "又快到了：{error}，还差 {to_go}。",
        ],
        goal: &[
            "再次低于 {goal}：{error}，纪录是 {best}。",
            "回到 {goal} 以下：{error}，能追平 {best} 吗？",
            "{error}，又达标了，纪录仍是 {best}。",
            "再次达标：{error}，最低可能是 {min}。",
        ],
    },
    worse: Row {
        far: &[
            "{error}：比上一次差，房子们要搬出城了。",
            "哎呀，升到 {error}，最好成绩还是 {best}。",
            "这次走反了：{error}。",
            "误差涨到 {error}，线正飘向月球。",
            "退到 {error}，{best} 那次更低。",
            "变差了，{error}。目前最好的是 {best}。",
        ],
        middle: &[
            "比上一次差：{error}，最好成绩仍是 {best}。",
            "这一步代价不小：误差升到 {error}。",
            "这次升到 {error}，你的纪录是 {best}。",
            "误差上升到 {error}，{best} 仍是最好。",
            "方向反了：{error}，比上一次高。",
            "嗯，{error}，这次更差；最好成绩停在 {best}。",
        ],
        close: &[
            "{error}：退了一点，最好成绩是 {best}。",
            "稍微差了点：{error}，还差 {to_go}。",
            "升到 {error}，你的最好成绩 {best} 指明了方向。",
            "滑回 {error}，还差 {to_go}。",
            "这一下方向不对：{error}。",
        ],
        goal: &[
            "仍低于 {goal}：{error}，不过 {best} 更低。",
            "{error}：还在 {goal} 以下，比纪录 {best} 高一点。",
            "目标守住了，但 {error} 比上一次高。",
            "仍然达标：{error}，最好成绩还是 {best}。",
        ],
    },
    stuck: Row {
        far: &[
            "又是 {error}，这条线在打盹。",
            "差不多：{error}，房子们还在等。",
            "还是 {error} 左右，没什么变化。",
            "几乎没变：{error}，线卡在轨道上了。",
        ],
        middle: &[
            "和上一次差不多：{error}。",
            "还在 {error} 附近，线几乎没动。",
            "又是 {error} 左右，目前最好：{best}。",
            "没有实质变化：{error}。",
            "停在 {error}，最好成绩是 {best}。",
        ],
        close: &[
            "还是 {error}：只差 {to_go}。",
            "差不多，{error}，就差 {to_go}。",
            "停在 {error}，已经很接近了。",
            "又是 {error}，还差 {to_go}，一点点而已。",
        ],
        goal: &[
            "仍低于 {goal}：{error}，最低可能是 {min}。",
            "稳在 {error}，能磨到 {min} 吗？",
            "又是 {error}：目标保持住了。",
            "稳稳在 {goal} 以下：{error}，最优是 {min}。",
        ],
    },
    attempts_one: "{n} 次",
    attempts_many: "{n} 次",
    #[cfg(test)]
    keys: Keys {
        praise: &[
            "不错",
            "很好",
            "太好",
            "太棒",
            "漂亮",
            "厉害",
            "进步",
            "好多了",
            "有用",
            "真准",
            "走得好",
            "佩服",
            "比上一次好",
        ],
        closeness: &[
            "接近",
            "快到",
            "差一点",
            "就差",
            "只差",
            "微调",
            "快贴",
            "近了",
            "一点点",
        ],
        goal_claims: &[
            "目标",
            "达标",
            "450",
            "{goal}",
            "成功",
            "训练",
            "一步到位",
            "刚刚好",
        ],
    },
};
