import { expect, test, type Page } from "@playwright/test";
import { error } from "./neuron";

// Jay's score lines: under his score, a line at each threshold he used
// (799, 750, 600, 500, 450) and a tease past 100,000 and 800,000. Here they sit
// under the goal ladder, for the latest attempt, in the page's language.

const LINES = {
  en: [
    "Under 799: the line has started to learn.",
    "Under 750: that was no lucky drag.",
    "Under 600: somewhere, Yann LeCun looks up.",
    "Under 500: the machines are taking notes.",
    "Under 450: about as fine as a human hand can tune it.",
    "Way off: this line misses every house by a mile.",
    "Are you even trying? The sliders barely go further.",
  ],
  pt: [
    "Abaixo de 799: a reta começou a aprender.",
    "Abaixo de 750: isso não foi sorte.",
    "Abaixo de 600: em algum lugar, o Yann LeCun ergueu os olhos.",
    "Abaixo de 500: as máquinas estão tomando nota.",
    "Abaixo de 450: é o ajuste mais fino que uma mão humana consegue.",
    "Longe demais: essa reta passa longe de todas as casas.",
    "Está tentando mesmo? Os controles quase não vão além disso.",
  ],
  zh: [
    "低于 799：这条线开始学会了。",
    "低于 750：这一下可不是碰运气。",
    "低于 600：远方的 Yann LeCun 抬起了头。",
    "低于 500：机器们正在记笔记。",
    "低于 450：人手能调到的精细程度，差不多就是这样了。",
    "差得太远：这条线离每栋房子都很远。",
    "你是认真的吗？滑块都快拉到头了。",
  ],
} as const;

// One point per line (weight, bias), its error inside the line's band; `null`:
// between 799 and 100,000 there is no line.
const POINTS: [number, number, number | null][] = [
  [0.1, 152, 0], // 751.9
  [0.1, 155, 1], // 696.1
  [0.09, 183.1, 2], // 555.6
  [0.08, 203.5, 3], // 497.8
  [0.06, 244.2, 4], // 447.5: the goal
  [0.1, 100, null], // 4,579
  [0, 0, 5], // 134,972
  [0.4, 460, 6], // 836,906
];

async function type(page: Page, id: "weight" | "bias", value: number, sep: string) {
  const box = page.locator(`#${id}-number`);
  await box.fill(String(value).replace(".", sep));
  await box.press("Enter");
}

for (const lang of ["en", "pt", "zh"] as const) {
  test(`each score line appears at its threshold (${lang})`, async ({ page }) => {
    await page.goto(`/?lang=${lang}`);
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    // The server writes all seven lines; the one for the latest attempt is shown.
    const line = page.locator("[data-testid=score-line] > span:visible");
    await expect(line).toHaveCount(0); // nothing before the first attempt
    const sep = lang === "pt" ? "," : ".";
    for (const [w, b, index] of POINTS) {
      // Weight first, then bias: two attempts; the line follows the latest.
      await type(page, "weight", w, sep);
      await type(page, "bias", b, sep);
      const why = `w ${w}, b ${b}: error ${error(w, b).toFixed(2)}`;
      if (index === null) await expect(line, why).toHaveCount(0);
      else await expect(line, why).toHaveText(LINES[lang][index]);
    }
    // The 750 rung is on the ladder again: six rungs, all ticked by the goal.
    await expect(page.getByTestId("rung")).toHaveCount(6);
    await expect(page.locator("[data-testid=rung].reached")).toHaveCount(5);
  });
}
