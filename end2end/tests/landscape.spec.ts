import { expect, test, type Page } from "@playwright/test";
import { error, grouped } from "./neuron";

// The loss landscape (click to move, a marker that moves with the keys) and the
// gradient descent lab (goal reached when standardised, divergence shown as a
// state when the rate is too high).

async function open(page: Page) {
  await page.goto("/");
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
  // The full view: weight 0–0.3 left to right, bias 0–500 bottom to top.
  await page.mouse.click(plot.x + plot.width * 0.2, plot.y + plot.height * 0.5);
  await expect(page.getByTestId("attempt")).toHaveCount(1);
  const { w, b } = await model(page);
  expect(Math.abs(w - 0.06)).toBeLessThan(0.002);
  expect(Math.abs(b - 250)).toBeLessThan(4);
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

test("the marker moves one slider step per arrow key, along the valley with Shift", async ({ page }) => {
  await open(page);
  const start = await model(page);
  const marker = page.getByTestId("landscape-marker");
  await marker.focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.locator("#weight-number")).toHaveValue(String(+(start.w + 0.0001).toFixed(7)));
  await page.keyboard.press("ArrowUp");
  await expect(page.locator("#bias-number")).toHaveValue(String(+(start.b + 0.1).toFixed(4)));
  // Along the valley: the bias rises a step and the weight falls 0.0000479.
  await page.keyboard.press("Shift+ArrowUp");
  await expect(page.locator("#bias-number")).toHaveValue(String(+(start.b + 0.2).toFixed(4)));
  const moved = await model(page);
  expect(moved.w - (start.w + 0.0001)).toBeCloseTo(-0.0000479, 6);
  // The three quick presses are one attempt, recorded once they settle.
  await expect(page.getByTestId("attempt")).toHaveCount(1);
  await expect(page.getByTestId("attempts-summary")).toHaveAttribute("data-count", "1");
});

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
  await expect(page.getByTestId("landscape-marker")).toHaveAttribute("aria-valuetext", /^weight 0\.0[56]/);
  await expect(page.getByTestId("attempt")).toHaveCount(0);
  await page.mouse.up();
  await expect(page.getByTestId("attempt")).toHaveCount(1);
  const { w, b } = await model(page);
  expect(Math.abs(w - 0.06)).toBeLessThan(0.002);
  expect(Math.abs(b - 250)).toBeLessThan(4);
  await expect(page.getByTestId("error-value")).toHaveText(grouped(error(w, b)));
});
