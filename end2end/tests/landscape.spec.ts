import { expect, test, type Page } from "@playwright/test";
import { error, grouped } from "./neuron";

// The loss landscape (click to move, a marker that steps like the sliders, an
// outlined and labelled goal island, a legend, "tap" on touch screens) and the
// gradient descent lab (goal reached when standardised, divergence shown as a
// state when the rate is too high).

async function open(page: Page, path = "/") {
  await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

async function model(page: Page) {
  return {
    w: Number(await page.locator("#weight-number").inputValue()),
    b: Number(await page.locator("#bias-number").inputValue()),
  };
}

test("clicking the map moves the model there, as one attempt", async ({ page }) => {
  await open(page);
  await page.getByTestId("landscape-map").scrollIntoViewIfNeeded();
  const plot = await page.getByTestId("landscape-plot").boundingBox();
  if (!plot) throw new Error("no plot");
  // The full view: weight 0–0.4 left to right, bias 0–460 bottom to top (Jay's ranges).
  await page.mouse.click(plot.x + plot.width * 0.2, plot.y + plot.height * 0.5);
  await expect(page.getByTestId("attempt")).toHaveCount(1);
  const { w, b } = await model(page);
  expect(Math.abs(w - 0.08)).toBeLessThan(0.002);
  expect(Math.abs(b - 230)).toBeLessThan(4);
  await expect(page.getByTestId("error-value")).toHaveText(grouped(error(w, b)));
  await expect(page.getByTestId("landscape-marker")).toHaveAttribute(
    "aria-valuetext",
    new RegExp(`error ${grouped(error(w, b)).replace(/\./g, "\\.")}$`),
  );
  // Zoomed to the valley, a click lands inside the valley's box.
  await page.getByTestId("landscape-zoom").click();
  await expect(page.getByTestId("landscape-zoom")).toHaveAttribute("aria-pressed", "true");
  await page.getByTestId("landscape-map").scrollIntoViewIfNeeded();
  const zoomed = await page.getByTestId("landscape-plot").boundingBox();
  if (!zoomed) throw new Error("no plot");
  await page.mouse.click(zoomed.x + zoomed.width * 0.5, zoomed.y + zoomed.height * 0.5);
  await expect(page.getByTestId("attempt")).toHaveCount(2);
  const there = await model(page);
  expect(there.w).toBeGreaterThan(0.03);
  expect(there.w).toBeLessThan(0.09);
  expect(there.b).toBeGreaterThan(200);
  expect(there.b).toBeLessThan(300);
  await expect(page.getByTestId("error-value")).toHaveText(grouped(error(there.w, there.b)));
});

test("the marker steps like the sliders: arrows fine, Shift and Page Up/Down coarse, Home and End", async ({ page }) => {
  await open(page);
  const marker = page.getByTestId("landscape-marker");
  await marker.focus();
  const at = async (w: string, b: string) => {
    await expect(page.locator("#weight-number")).toHaveValue(w);
    await expect(page.locator("#bias-number")).toHaveValue(b);
  };
  // One slider step: weight 0.0001, bias 0.1.
  await page.keyboard.press("ArrowRight");
  await at("0.1001", "150");
  await page.keyboard.press("ArrowUp");
  await at("0.1001", "150.1");
  // A coarse step, the sliders' coarse nudges: weight 0.001, bias 1.
  await page.keyboard.press("Shift+ArrowLeft");
  await at("0.0991", "150.1");
  await page.keyboard.press("Shift+ArrowUp");
  await at("0.0991", "151.1");
  await page.keyboard.press("PageUp");
  await at("0.0991", "152.1");
  await page.keyboard.press("PageDown");
  await page.keyboard.press("PageDown");
  await at("0.0991", "150.1");
  // End: down to the valley floor, the best bias for this weight (the button's).
  await page.keyboard.press("End");
  await at("0.0991", "164.6");
  // Home: back to Jay's start.
  await page.keyboard.press("Home");
  await at("0.1", "150");
  await expect(page.getByTestId("error-value")).toHaveText("799.09");
  await page.keyboard.press("ArrowDown");
  await at("0.1", "149.9");
  // The quick presses are one attempt, recorded once they settle (a burst
  // that ends where it began records none).
  await expect(page.getByTestId("attempt")).toHaveCount(1);
  await expect(page.getByTestId("attempts-summary")).toHaveAttribute("data-count", "1");
  // The keys are the marker's description, shown under the map.
  await expect(marker).toHaveAttribute("aria-describedby", "landscape-keys");
  await expect(page.locator("#landscape-keys")).toContainText("Page Up/Page Down");
});

test("Alt+arrows walk the valley floor: the goal from the start in 37 presses, not a thousand", async ({ page }) => {
  // Opened from another page, so that a Back the browser took for Alt+← would show.
  await page.goto("/?lang=en");
  await open(page);
  const marker = page.getByTestId("landscape-marker");
  await marker.focus();
  await page.keyboard.press("Alt+ArrowLeft");
  // Weight −0.001 and the best bias for it.
  await expect(page.locator("#weight-number")).toHaveValue("0.099");
  // (399.9 + 329.9 + 369 − 6104 × 0.099) / 3 = 164.83, on the slider's grid;
  // and still this page: no Back for Alt+←.
  await expect(page.locator("#bias-number")).toHaveValue("164.8");
  let presses = 1;
  while (!(await page.getByTestId("score").getAttribute("class"))?.includes("success")) {
    await page.keyboard.press("Alt+ArrowUp");
    presses++;
    if (presses > 60) throw new Error("the walk never reached the goal");
  }
  expect(presses).toBe(37);
  const { w, b } = await model(page);
  expect(error(w, b)).toBeLessThan(450);
  await expect(page.getByTestId("error-value")).toHaveText(grouped(error(w, b)));
  // The burst is one attempt.
  await expect(page.getByTestId("attempts-summary")).toHaveAttribute("data-count", "1");
  test.info().annotations.push({ type: "presses", description: String(presses) });
});

test("the goal island is outlined above the marker, labelled, and big enough to see", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await open(page);
  const island = page.getByTestId("landscape-island");
  await expect(island).toHaveClass(/island-line/);
  await expect(island).toHaveCount(1);
  // Drawn after the marker, so the marker's ring never covers it.
  const after = await page.evaluate(() => {
    const marker = document.querySelector("[data-testid=landscape-marker]");
    const isle = document.querySelector("[data-testid=landscape-island]");
    return !!marker && !!isle && !!(marker.compareDocumentPosition(isle) & Node.DOCUMENT_POSITION_FOLLOWING);
  });
  expect(after).toBe(true);
  const label = page.getByTestId("landscape-goal-label");
  await expect(label).toHaveText("Goal: below 450");
  const sizes: string[] = [];
  for (const zoom of [false, true]) {
    if (zoom) await page.getByTestId("landscape-zoom").click();
    await page.getByTestId("landscape-map").scrollIntoViewIfNeeded();
    const box = await island.boundingBox();
    const plot = await page.getByTestId("landscape-plot").boundingBox();
    const text = await label.locator("text").boundingBox();
    if (!box || !plot || !text) throw new Error("no island, plot or label");
    sizes.push(`${zoom ? "zoomed" : "full"} ${box.width.toFixed(1)}×${box.height.toFixed(1)} px`);
    if (zoom) expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(12);
    else expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(9);
    // The label inside the plot, above the island.
    expect(text.x).toBeGreaterThanOrEqual(plot.x);
    expect(text.x + text.width).toBeLessThanOrEqual(plot.x + plot.width);
    expect(text.y + text.height).toBeLessThan(box.y + box.height / 2);
  }
  test.info().annotations.push({ type: "island", description: sizes.join(", ") });
});

const LEGENDS = [
  { code: "en", words: ["Low error", "high error", "Goal: error below 450", "Your attempts", "Gradient descent's path", "Your model now"], click: "Click the map", tap: "Tap the map" },
  { code: "pt", words: ["Erro baixo", "erro alto", "Meta: erro abaixo de 450", "Suas tentativas", "Caminho do gradiente descendente", "Seu modelo agora"], click: "Clique no mapa", tap: "Toque no mapa" },
  { code: "zh", words: ["误差小", "误差大", "目标：误差低于 450", "你的尝试", "梯度下降的路径", "模型现在的位置"], click: "点击地图", tap: "轻点地图" },
] as const;

for (const lang of LEGENDS) {
  test(`the map has a legend in words and says click with a mouse (${lang.code})`, async ({ page }) => {
    await open(page, `/?lang=${lang.code}`);
    const legend = page.getByTestId("landscape-legend");
    await expect(legend.locator("li")).toHaveCount(7);
    for (const words of lang.words) await expect(legend).toContainText(words);
    await expect(page.getByTestId("landscape-click")).toBeVisible();
    await expect(page.getByTestId("landscape-click")).toContainText(lang.click);
    await expect(page.getByTestId("landscape-tap")).toBeHidden();
    await expect(page.getByTestId("landscape-keys")).toBeVisible();
  });

  test.describe(`on a touch screen (${lang.code})`, () => {
    test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

    test(`the caption says tap (${lang.code})`, async ({ page }) => {
      await open(page, `/?lang=${lang.code}`);
      await expect(page.getByTestId("landscape-tap")).toBeVisible();
      await expect(page.getByTestId("landscape-tap")).toContainText(lang.tap);
      await expect(page.getByTestId("landscape-click")).toBeHidden();
      await expect(page.getByTestId("landscape-keys")).toBeHidden();
      await expect(page.getByTestId("landscape-legend").locator("li")).toHaveCount(7);
      // Zoomed, the island is at least 12 px across on a phone too.
      await page.getByTestId("landscape-zoom").tap();
      const box = await page.getByTestId("landscape-island").boundingBox();
      if (!box) throw new Error("no island");
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(12);
    });
  });
}

test("gradient descent on standardised areas at rate 0.1 reaches the goal", async ({ page }) => {
  await open(page);
  await page.getByTestId("gd-standardise").check();
  await expect(page.getByTestId("gd-rate-value")).toHaveText("0.1");
  await page.getByTestId("gd-play").click();
  await expect(page.getByTestId("gd-status")).toHaveText(/^Goal reached at step 11: /);
  await expect(page.getByTestId("gd-play")).toHaveText("Play");
  await expect(page.getByTestId("descent-path")).toHaveCount(1);
  // "Move my model to the lab's point" records the lab's point as one attempt.
  await page.getByTestId("gd-apply").click();
  await expect(page.getByTestId("score")).toHaveClass(/success/);
  await expect(page.getByTestId("attempt")).toHaveCount(1);
});

test("a too-high learning rate shows divergence, never NaN", async ({ page }) => {
  await open(page);
  await expect(page.getByTestId("gd-rate-value")).toHaveText("2e-7");
  await page.locator("#gd-rate").focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("gd-rate-value")).toHaveText("1e-6");
  await page.getByTestId("gd-play").click();
  await expect(page.getByTestId("gd-status")).toHaveText(/^Diverged at step \d+: .*stable below 2\.35e-7/);
  await expect(page.getByTestId("loss-chart")).toContainText("diverged");
  await expect(page.locator("body")).not.toContainText("NaN");
  await expect(page.locator("body")).not.toContainText("Infinity");
});

test("the best-response buttons pressed in turn zig-zag on the map", async ({ page }) => {
  await open(page);
  await page.getByTestId("best-bias").click();
  await expect(page.getByTestId("attempt")).toHaveCount(1);
  await page.getByTestId("best-weight").click();
  await expect(page.getByTestId("attempt")).toHaveCount(2);
  await page.getByTestId("best-bias").click();
  await expect(page.getByTestId("attempt")).toHaveCount(3);
  const points = ((await page.getByTestId("trail-line").getAttribute("points")) ?? "")
    .split(" ")
    .map((p) => p.split(",").map(Number));
  expect(points).toHaveLength(3);
  // The trail joins the attempts: best weight moved only the weight (a horizontal
  // segment), then best bias only the bias (a vertical one).
  expect(points[1][1]).toBe(points[0][1]);
  expect(points[1][0]).not.toBe(points[0][0]);
  expect(points[2][0]).toBe(points[1][0]);
  expect(points[2][1]).not.toBe(points[1][1]);
});

test("dragging on the map carries the marker and records one attempt on release", async ({ page }) => {
  await open(page);
  await page.getByTestId("landscape-map").scrollIntoViewIfNeeded();
  const plot = await page.getByTestId("landscape-plot").boundingBox();
  if (!plot) throw new Error("no plot");
  await page.mouse.move(plot.x + plot.width * 0.5, plot.y + plot.height * 0.8);
  await page.mouse.down();
  await page.mouse.move(plot.x + plot.width * 0.2, plot.y + plot.height * 0.5, { steps: 8 });
  // While dragging only the marker moves; nothing is recorded yet.
  await expect(page.getByTestId("landscape-marker")).toHaveAttribute("aria-valuetext", /^weight 0\.0[78]/);
  await expect(page.getByTestId("attempt")).toHaveCount(0);
  await page.mouse.up();
  await expect(page.getByTestId("attempt")).toHaveCount(1);
  const { w, b } = await model(page);
  expect(Math.abs(w - 0.08)).toBeLessThan(0.002);
  expect(Math.abs(b - 230)).toBeLessThan(4);
  await expect(page.getByTestId("error-value")).toHaveText(grouped(error(w, b)));
});
