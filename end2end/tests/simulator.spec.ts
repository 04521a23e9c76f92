import { expect, test, type Page } from "@playwright/test";
import { HOUSES, START, bestBias, bestWeight, error, grouped, onStep, predict, squaredErrors, xOf, yOf } from "./neuron";
import { SETTLE_MS, stopTheClock } from "./clock";

/** Opens the page and waits until the WASM has hydrated it. */
async function open(page: Page) {
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

async function sliderValue(page: Page, id: "weight" | "bias") {
  return Number(await page.locator(`#${id}`).inputValue());
}

/** Every number on the page agrees with the math for these parameters. */
async function expectConsistent(page: Page, w: number, b: number) {
  await expect(page.getByTestId("error-value")).toHaveText(grouped(error(w, b)));
  await expect(page.getByTestId("mean-error")).toHaveText(grouped(error(w, b)));
  const predictions = HOUSES.map((h) => grouped(predict(h.area, w, b)));
  await expect(page.getByTestId("prediction")).toHaveText(predictions);
  await expect(page.getByTestId("squared-error")).toHaveText(squaredErrors(w, b).map((e) => grouped(e)));
  const line = page.getByTestId("prediction-line");
  await expect(line).toHaveAttribute("y1", yOf(predict(0, w, b)).toFixed(2));
  await expect(line).toHaveAttribute("y2", yOf(predict(3000, w, b)).toFixed(2));
  const residuals = page.getByTestId("residual");
  for (const [i, h] of HOUSES.entries()) {
    await expect(residuals.nth(i)).toHaveAttribute("x1", xOf(h.area).toFixed(2));
    await expect(residuals.nth(i)).toHaveAttribute("y1", yOf(h.price).toFixed(2));
    await expect(residuals.nth(i)).toHaveAttribute("y2", yOf(predict(h.area, w, b)).toFixed(2));
  }
}

async function attemptCount(page: Page) {
  return Number(await page.getByTestId("attempts-summary").getAttribute("data-count"));
}

test("the server renders the starting numbers before any WASM runs", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  await expectConsistent(page, START.weight, START.bias);
  // Where Jay's guide starts: "can you get below 799?"
  expect(grouped(error(START.weight, START.bias))).toBe("799.09");
  await expect(page.getByTestId("score-status")).toContainText("to go to get below 450");
  await context.close();
});

test("the hydrated page starts at the same numbers, with no attempts", async ({ page }) => {
  await open(page);
  await expectConsistent(page, START.weight, START.bias);
  expect(await attemptCount(page)).toBe(0);
  await expect(page.getByTestId("attempts-summary")).toContainText("No attempts yet");
});

test("arrow keys move each slider live; a burst of presses is one attempt, after it settles", async ({ page }) => {
  // The page's timers on a clock the test moves (./clock.ts).
  await page.clock.install();
  await open(page);
  const comments: string[] = [];
  const others: string[] = [];
  page.on("request", (r) => (r.url().endsWith("/api/comment") ? comments : others).push(r.url()));

  await page.locator("#weight").focus();
  await stopTheClock(page);
  for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowRight");
  const w = await sliderValue(page, "weight");
  expect(w).toBeCloseTo(START.weight + 0.0005, 6);
  // Everything follows at once; the attempt waits for the burst to settle:
  // SETTLE_MS after the last press, not a moment before.
  await expectConsistent(page, w, START.bias);
  await expect(page.locator("#weight-number")).toHaveValue(String(w));
  await page.clock.runFor(SETTLE_MS - 1);
  expect(await attemptCount(page)).toBe(0);
  await page.clock.runFor(1);
  await expect(page.getByTestId("attempt")).toHaveCount(1);
  expect(await attemptCount(page)).toBe(1);
  await page.clock.resume();

  await page.locator("#bias").focus();
  await page.keyboard.press("ArrowLeft");
  const b = await sliderValue(page, "bias");
  expect(b).toBeCloseTo(START.bias - 0.1, 6);
  await expectConsistent(page, w, b);
  await expect(page.getByTestId("attempt")).toHaveCount(2);
  await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");
  // One comment per attempt; the numbers were computed in the browser (no
  // request for chart, table or error).
  expect(await attemptCount(page)).toBe(2);
  await expect.poll(() => comments.length).toBe(2);
  expect(others.filter((url) => !url.endsWith("/favicon.svg"))).toEqual([]);
});

test("dragging a slider updates live, and the release records one attempt", async ({ page }) => {
  await open(page);
  for (const id of ["weight", "bias"] as const) {
    const before = await attemptCount(page);
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    const box = (await page.locator(`#${id}`).boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.3, y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) {
      await page.mouse.move(box.x + box.width * (0.3 + i * 0.04), y);
    }
    // Mid-drag: the numbers follow the thumb, but no attempt is recorded yet.
    const w = await sliderValue(page, "weight");
    const b = await sliderValue(page, "bias");
    await expectConsistent(page, w, b);
    expect(await attemptCount(page)).toBe(before);

    await page.mouse.up();
    await expect(page.getByTestId("attempts-summary")).toHaveAttribute("data-count", String(before + 1));
    await expectConsistent(page, await sliderValue(page, "weight"), await sliderValue(page, "bias"));
  }
  // The drags really moved both parameters away from the start.
  expect(await sliderValue(page, "weight")).not.toBeCloseTo(START.weight, 4);
  expect(await sliderValue(page, "bias")).not.toBeCloseTo(START.bias, 1);
});

test("typing the optimum shows 447.29 and the success state", async ({ page }) => {
  await open(page);
  await page.locator("#weight-number").fill("0.0585");
  await page.locator("#weight-number").press("Enter");
  await page.locator("#bias-number").fill("247.26");
  await page.locator("#bias-number").press("Enter");

  await expect(page.getByTestId("error-value")).toHaveText("447.29");
  await expectConsistent(page, 0.0585, 247.26);
  await expect(page.getByTestId("score")).toHaveClass(/success/);
  await expect(page.getByTestId("score-status")).toContainText("Goal reached");
  await expect(page.getByTestId("score-status")).toContainText("447.29");
  expect(await attemptCount(page)).toBe(2);
  // The best attempt is the latest one, and it is starred.
  await expect(page.getByTestId("attempt").first()).toHaveClass(/best/);
  await expect(page.getByTestId("attempts-summary")).toContainText("best 447.29 (#2)");
});

test("a number that is not a number is refused, one out of range is clamped", async ({ page }) => {
  await open(page);
  const field = page.locator("#weight-number");
  await field.fill("");
  await field.press("Enter");
  await field.blur();
  await expect(field).toHaveValue(String(START.weight));
  expect(await attemptCount(page)).toBe(0);

  await field.fill("5");
  await field.press("Enter");
  await expect(field).toHaveValue("0.4");
  await expectConsistent(page, 0.4, START.bias);
  expect(await attemptCount(page)).toBe(1);
});

for (const viewport of [
  { width: 360, height: 740 },
  { width: 800, height: 600 },
]) {
  test(`fits a ${viewport.width}px wide screen without sideways scrolling`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await open(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    for (const id of ["#weight", "#bias", "#weight-number", "#bias-number"]) {
      await expect(page.locator(id)).toBeVisible();
    }
    await expect(page.getByTestId("chart")).toBeVisible();
  });
}

test("keyboard users see where the focus is", async ({ page }) => {
  await open(page);
  await page.locator("#weight").focus();
  await page.keyboard.press("Tab");
  await expect(page.locator("#weight-number")).toBeFocused();
  const outline = await page.locator("#weight-number").evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe("none");
});

test("the best-response buttons zig-zag down the valley, one attempt and one comment each", async ({ page }) => {
  let comments = 0;
  page.on("request", (r) => {
    if (r.url().endsWith("/api/comment")) comments += 1;
  });
  await open(page);
  let [w, b] = [START.weight, START.bias];
  let previous = error(w, b);
  for (let press = 1; press <= 4; press++) {
    if (press % 2 === 1) {
      b = onStep(bestBias(w), 0.1);
      await page.getByTestId("best-bias").click();
    } else {
      w = onStep(bestWeight(b), 0.0001);
      await page.getByTestId("best-weight").click();
    }
    await expect(page.getByTestId("error-value")).toHaveText(grouped(error(w, b)));
    // One precision everywhere: the bias box shows the slider's step.
    await expect(page.locator("#bias-number")).toHaveValue(String(b));
    expect(error(w, b)).toBeLessThan(previous);
    previous = error(w, b);
    await expect.poll(() => attemptCount(page)).toBe(press);
    await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");
  }
  // Still far from the goal after four presses: the valley is diagonal.
  expect(previous).toBeGreaterThan(450);
  expect(comments).toBe(4);
});

test("the nudge buttons step by the coarse and the fine amount, one attempt each", async ({ page }) => {
  await open(page);
  const weight = page.getByTestId("weight-nudges");
  const bias = page.getByTestId("bias-nudges");
  await weight.getByRole("button", { name: "Weight −0.001" }).click();
  await weight.getByRole("button", { name: "Weight +0.0001" }).click();
  await bias.getByRole("button", { name: "Bias +1" }).click();
  await bias.getByRole("button", { name: "Bias −0.1" }).click();
  const [w, b] = [START.weight - 0.001 + 0.0001, START.bias + 1 - 0.1];
  await expect(page.locator("#weight-number")).toHaveValue(w.toFixed(4).replace(/0+$/, ""));
  await expect(page.locator("#bias-number")).toHaveValue(String(Math.round(b * 10) / 10));
  await expectConsistent(page, w, b);
  expect(await attemptCount(page)).toBe(4);
  // Each button is at least 44 px, for fingers.
  for (const box of await Promise.all((await weight.getByRole("button").all()).map((b) => b.boundingBox()))) {
    expect(box!.height).toBeGreaterThanOrEqual(44);
    expect(box!.width).toBeGreaterThanOrEqual(44);
  }
});

test("the guide's question is answered live by the current line", async ({ page }) => {
  await open(page);
  const answer = page.getByTestId("question-answer");
  await expect(answer).toHaveText("Your line prices it at $350k, so $400k looks too much.");
  await page.locator("#bias-number").fill("205");
  await page.locator("#bias-number").press("Enter");
  await expect(answer).toHaveText(`Your line prices it at $${grouped(predict(2000, START.weight, 205), 0)}k, so $400k looks about fair.`);
});

test("the goal ladder ticks each rung once the best attempt is below it", async ({ page }) => {
  await open(page);
  const rungs = page.getByTestId("rung");
  await expect(rungs).toHaveCount(6);
  await expect(page.locator("[data-testid=rung].reached")).toHaveCount(0);
  await page.getByTestId("best-bias").click(); // 799.09 → 635.25, below 750
  await expect(page.locator("[data-testid=rung].reached")).toHaveCount(2); // 635.25
  await expect(page.getByTestId("ladder-news")).toHaveText("Rung 2 of 6 reached: below 750.");
  await page.locator("#weight-number").fill("0.0585");
  await page.locator("#weight-number").press("Enter");
  await page.locator("#bias-number").fill("247.26");
  await page.locator("#bias-number").press("Enter");
  await expect(page.locator("[data-testid=rung].reached")).toHaveCount(6);
  await expect(page.getByTestId("ladder-news")).toHaveText("Rung 6 of 6 reached: 447.29 (the floor: no line does better).");
});
