//! Everything the coach says or reads in English: the prompt's sentences
//! and few-shot examples, the facts in words, and the keywords of the
//! direction check (the offline commentator's phrases are in
//! `coach::offline::phrasebook::en`). One file per language; adding one is a
//! file like this, a line in `coach::words::words_for` and the `Lang`
//! variant with its profile (`vocabulary::lang`).

use crate::words::{ClaimWords, DirectionWords, FactWords, PromptWords, Script, Words, MAX_WORDS};

pub static WORDS: Words = Words {
    prompt: PromptWords {
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
    },
    // (error, earlier errors, answer) per tier: far, close, goal. Each
    // answer fits its own situation (first, better, worse, about the same).
    examples: [
        // far
        &[
            (70_433.03, &[], "Bold start! That line is aiming at houses on the Moon."),
            (13_359.08, &[20_000.0], "Better! The houses can almost see your line from there."),
            (25_112.4, &[9_870.0], "Oops, wrong way! Your line just left for a holiday in the clouds."),
            (5_480.75, &[5_470.0], "Same spot, new attempt. The houses are starting to wonder what you're planning."),
            (152_220.0, &[40_000.0], "Whoa! That line is so far off that the houses need binoculars."),
            (3_120.55, &[8_400.0], "Big improvement! Still far off, but the houses can hear your line coming."),
        ],
        // close
        &[
            (1_450.0, &[2_600.0], "Nice jump! Now nudge the bias in small steps and watch the red gaps shrink."),
            (799.09, &[760.0], "A step back. Hold the weight steady and fine-tune the bias."),
            (1_180.0, &[1_900.0], "Getting warmer! Small, patient steps from here on."),
            (612.4, &[614.0], "About the same as last time. Maybe give the other slider a turn?"),
            (905.3, &[], "A solid first try! The longest red gap shows where the line misses most."),
            (530.2, &[560.0], "So close to the goal! Tiny moves now, one slider at a time."),
        ],
        // goal
        &[
            (447.29, &[460.0], "Perfect fit! 447.29 is the best any line can do. You trained a neuron!"),
            (449.5, &[1_200.0], "Below 450! Your neuron learned. Can you squeeze out the last decimals?"),
            (448.1, &[452.0], "Goal reached! Your line runs right through the middle of the houses."),
            (447.8, &[447.9], "Rock solid. You are a whisker away from the best possible line."),
            (449.9, &[], "Straight to the goal on the first try? That is serious intuition!"),
            (448.6, &[2_300.0, 900.0], "You did it! Gradient descent would be proud of this hand-made descent."),
        ],
    ],
    facts: FactWords {
        weight: "weight",
        bias: "bias",
        up: "raise",
        down: "lower",
        intro: "Facts (say them in your own words, never contradict them): weight {w}, bias {b}; the error is {above} above the lowest possible, {min}.",
        best_move: "The single move that helps most: {way} the {param} by about {by}, to an error of about {after}.",
        valley: "The point is in the valley: one slider alone barely helps; {wway} the weight and {bway} the bias together, in small steps.",
        no_move: "No single slider can lower the error any more.",
        hint: "Try to {way} the {param} by about {by}.",
        valley_hint: "In the valley: {wway} the weight and {bway} the bias together.",
    },
    two: &crate::words::two::en::WORDS,
    directions: DirectionWords {
        by_characters: false,
        simplified: &[],
        joins: &["and", "then", "but", "while", "so", "or", "plus"],
        weight: &["weight", "slope"],
        bias: &["bias", "intercept"],
        error: &["error", "loss", "mse", "cost"],
        up: &[
            "rais*", "increas*", "higher", "up", "boost*", "bigger", "larger", "greater",
            "add", "adding", "steeper", "bump*", "lift*", "worse",
        ],
        down: &[
            "lower*", "decreas*", "reduc*", "down", "drop*", "smaller", "cut", "cuts",
            "cutting", "shrink*", "subtract*", "trim*", "flatter",
        ],
        more: &["more"],
        less: &["less"],
        negations: &[
            "not", "no", "never", "*n't", "dont", "cannot", "stop*", "avoid*", "hold off",
        ],
        verb_negations: &[],
        idioms: &[
            "why not",
            "why don't you",
            "don't be afraid to",
            "don't hesitate to",
            "don't forget to",
            "do not forget to",
            "never forget to",
            "can't hurt to",
            "won't hurt to",
            "wouldn't hurt to",
            "never hurts to",
            "not bad",
            "no worries",
            "keep it up",
            "keep up",
            "up to",
            "give up",
            "set up",
            "line up",
            "lines up",
            "slow down",
            "calm down",
            "more or less",
            "once more",
            "one more",
            "any more",
        ],
        cutoffs: &["instead of", "rather than", "without"],
        describers: &[
            "is", "are", "was", "were", "it's", "that's", "there's", "they're", "you're",
            "we're", "been", "being", "looks", "seems", "stays", "remains", "went", "gone",
            "gets", "got", "feels", "sits",
        ],
        adverbs: &[
            "still", "now", "already", "a", "bit", "little", "lot", "much", "way", "far",
            "even", "too", "slightly", "somewhat", "quite", "just", "getting",
        ],
        than: &["than"],
        comparative: &[],
        past_endings: &["ed"],
        past_markers: &[],
        pronouns: &["it"],
        fillers: &[
            "the", "an", "your", "both", "also", "together", "as", "well", "of", "this", "that",
            "touch",
        ],
        drops_objects: false,
    },
    claims: ClaimWords {
        reached: &[
            "goal reached", "reached the goal", "reached your goal", "reached the target",
            "hit the goal", "hit your goal", "hit the target", "met the goal", "goal met",
            "goal achieved", "achieved the goal", "goal accomplished", "you did it",
            "you've done it", "you made it", "you've made it", "nailed it",
            "mission accomplished", "perfect fit", "trained a neuron", "trained the neuron",
            "trained your neuron", "neuron trained", "you win", "you won", "you've won",
            "beat the goal", "crushed the goal", "smashed the goal", "got your first goal",
            "got the goal", "got your goal", "scored the goal", "scored a goal",
        ],
        alone: &["success", "victory", "made it", "did it", "we did it", "done", "a win", "win"],
        below: &["below", "under", "beneath", "underneath", "less than", "lower than"],
        below_after: &[],
        negations: &[
            "not", "*n't", "no", "never", "yet", "almost", "nearly", "close", "closer",
            "soon", "until", "till", "if", "when", "once", "will", "*'ll", "can", "could",
            "would", "might", "may", "how", "what",
        ],
        aims: &[
            "get", "gets", "getting", "bring", "push", "aim*", "goal", "target", "need*", "to",
            "try", "keep", "go", "going", "head*", "want", "reach", "let's", "let", "must",
            "should", "away", "toward*", "take", "put", "land",
        ],
        best: &[
            "best so far", "new best", "best attempt", "best try", "best result",
            "best one", "best score", "best error", "personal best", "new record", "a record",
            "record low", "lowest so far", "lowest error",
        ],
        better: &[
            "better than", "getting better", "much better", "way better", "better now",
            "better this time", "that's better", "it's better", "is better", "improved",
            "improving", "improvement", "progress", "progressing", "dropped", "went down",
            "coming down", "lower than before", "lower than last", "down from", "nice drop",
        ],
        error_is: &[
            "error is", "error's", "error now", "error is now", "error now is",
            "error stands at", "error sits at",
        ],
        relative: &[
            "above", "over", "away", "from", "to", "more", "less", "higher", "lower", "left",
            "off", "below", "under", "points", "units", "times", "steps", "percent",
        ],
    },
    // Longest accepted comment: the original server's rule, 20 words × 8 characters.
    max_chars: MAX_WORDS * 8,
    separator: " ",
    script: Script::Latin(whatlang::Lang::Eng),
    foreign: &[],
};
