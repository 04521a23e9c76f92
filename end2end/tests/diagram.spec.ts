import { expect, test, type Page } from "@playwright/test";
import { violations } from "./axe";

// The neuron diagram (area × weight + bias = price), in each
// language: its numbers follow a slider, a typed value, a hovered row and a
// focused row; a screen reader gets it as one sentence; axe stays clean.
//
// The numbers are written out by hand (not computed with the page's code):
// house 1 is 2,104 sq ft, house 2 1,600, house 3 2,400.

const LANGS = [
  {
    code: "en",
    typed: "0.2",
    house: (n: number, area: string) => `House ${n}: ${area} sq ft`,
    price: (k: string, wan: string) => `= $${k}k`,
    start: "House 1: 2,104 sq ft × 0.1 + 150 = 360.40, that is $360.4k.",
    num: (s: string) => s,
  },
  {
    code: "pt",
    typed: "0,2",
    house: (n: number, area: string) => `Casa ${n}: ${area} pés²`,
    price: (k: string, wan: string) => `= US$ ${k} mil`,
    start: "Casa 1: 2.104 pés² × 0,1 + 150 = 360,40, ou seja, US$ 360,4 mil.",
    // The Portuguese separators: 2.104 and 360,40.
    num: (s: string) => s.replace(/[.,]/g, (c) => (c === "." ? "," : ".")),
  },
  {
    code: "zh",
    typed: "0.2",
    house: (n: number, area: string) => `第 ${n} 栋房子：${area} 平方英尺`,
    // In 万美元, as the page's question and house titles count.
    price: (k: string, wan: string) => `= ${wan} 万美元`,
    start: "第 1 栋房子：2,104 平方英尺 × 0.1 + 150 = 360.40（单位：1000 美元），即 36.04 万美元。",
    num: (s: string) => s,
  },
] as const;

async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

for (const l of LANGS) {
  test(`${l.code}: the diagram follows the sliders, a typed value, a hovered row and a focused row`, async ({ page }) => {
    await open(page, `/?lang=${l.code}`);
    const diagram = page.getByTestId("diagram");
    const value = (name: string) => diagram.locator(`text.${name}`);
    /** What the diagram shows: which house, its area, w, b, the sum and the price. */
    const shows = async (n: number, area: string, w: string, b: string, out: string, k: string, wan: string) => {
      await expect(value("house")).toHaveText(l.house(n, l.num(area)));
      await expect(value("area")).toHaveText(l.num(area));
      await expect(value("weight")).toHaveText(`× ${l.num(w)}`);
      await expect(value("bias")).toHaveText(`+ ${l.num(b)}`);
      await expect(value("out")).toHaveText(l.num(out));
      await expect(value("price")).toHaveText(l.price(l.num(k), wan));
    };

    // Jay's start, the first house: 2,104 × 0.1 + 150 = 360.4.
    await shows(1, "2,104", "0.1", "150", "360.40", "360.4", "36.04");
    // One sentence for a screen reader, the picture itself its image.
    await expect(diagram).toHaveAttribute("role", "img");
    await expect(page.getByRole("img", { name: l.start, exact: true })).toBeVisible();

    // A slider moved with the keyboard: the bias to its minimum, 0.
    await page.locator("#bias").focus();
    await page.keyboard.press("Home");
    await shows(1, "2,104", "0.1", "0", "210.40", "210.4", "21.04");

    // A value typed in the weight's box: 2,104 × 0.2 = 420.8.
    await page.locator("#weight-number").fill(l.typed);
    await page.locator("#weight-number").press("Enter");
    await shows(1, "2,104", "0.2", "0", "420.80", "420.8", "42.08");

    // A row hovered in the table: the third house, 2,400 × 0.2 = 480.
    const rows = page.getByTestId("house-row");
    await rows.nth(2).hover();
    await shows(3, "2,400", "0.2", "0", "480.00", "480.0", "48");
    // The pointer leaves the table: back to the first house.
    await page.mouse.move(0, 0);
    await shows(1, "2,104", "0.2", "0", "420.80", "420.8", "42.08");

    // A row focused with the keyboard: the second house, 1,600 × 0.2 = 320.
    await rows.nth(1).focus();
    await shows(2, "1,600", "0.2", "0", "320.00", "320.0", "32");
    // Focus leaves the row: back to the first house.
    await rows.nth(1).blur();
    await shows(1, "2,104", "0.2", "0", "420.80", "420.8", "42.08");

    expect(await violations(page)).toEqual([]);
  });
}

test("axe finds no violation with a house picked in the table, on the page and in the embed", async ({ page }) => {
  for (const path of ["/", "/embed"]) {
    await open(page, path);
    await page.getByTestId("house-row").nth(2).focus();
    await expect(page.getByTestId("diagram").locator("text.house")).toHaveText("House 3: 2,400 sq ft");
    expect(await violations(page)).toEqual([]);
  }
});

// The 800×600 embed: the diagram sits under the chart, beside the controls'
// column, and takes none of the controls' room (in-view.spec.ts checks that
// every control is in the frame).
test("in the 800×600 embed the diagram is under the chart, left of the controls", async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 600 });
  await open(page, "/embed");
  const chart = (await page.getByTestId("chart").boundingBox())!;
  const diagram = (await page.getByTestId("diagram").boundingBox())!;
  const controls = (await page.locator(".controls").boundingBox())!;
  expect(diagram.y).toBeGreaterThan(chart.y + chart.height);
  expect(diagram.x + diagram.width).toBeLessThanOrEqual(controls.x);
});
