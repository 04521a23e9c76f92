import { expect, test, type Page } from "@playwright/test";
import { violations } from "./axe";

// axe-core keeps accessibility from rotting: no violation of its default rules
// (WCAG 2 A/AA among them) on the full page and the embed, hydrated, after an
// attempt, and once the goal is reached.

async function attempt(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.locator("#weight").focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");
}

for (const path of ["/", "/embed"]) {
  test(`axe finds no violation on ${path} after an attempt`, async ({ page }) => {
    await page.goto(path);
    await attempt(page);
    expect(await violations(page)).toEqual([]);
  });
}

test("axe finds no violation once the goal is reached", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.locator("#weight-number").fill("0.0585");
  await page.locator("#weight-number").press("Enter");
  await page.locator("#bias-number").fill("247.26");
  await page.locator("#bias-number").press("Enter");
  await expect(page.getByTestId("score")).toHaveClass(/success/);
  expect(await violations(page)).toEqual([]);
});

test("sliders say their value with its unit, and the comment its language", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("#weight")).toHaveAttribute("aria-valuetext", "0.1 ($1000 per sq ft)");
  await expect(page.locator("#bias")).toHaveAttribute("aria-valuetext", "150 ($1000)");
  await attempt(page);
  await expect(page.locator("#weight")).toHaveAttribute("aria-valuetext", "0.1001 ($1000 per sq ft)");
  await expect(page.getByTestId("coach-text")).toHaveAttribute("lang", "en");
});

test("axe finds no violation with the landscape zoomed and the descent lab run", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByTestId("landscape-zoom").click();
  await page.getByTestId("landscape-marker").focus();
  await page.keyboard.press("ArrowUp");
  await page.getByTestId("gd-standardise").check();
  await page.getByTestId("gd-play").click();
  await expect(page.getByTestId("gd-status")).toHaveText(/^Goal reached/);
  expect(await violations(page)).toEqual([]);
  await page.getByTestId("gd-raw").check();
  await page.locator("#gd-rate").focus();
  await page.keyboard.press("End");
  await page.getByTestId("gd-step10").click();
  await expect(page.getByTestId("gd-status")).toHaveText(/^Diverged/);
  expect(await violations(page)).toEqual([]);
});

test("each attempt is announced once, in one sentence; drag ticks are not", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  const status = page.getByTestId("announcer");
  await expect(status).toHaveAttribute("role", "status");
  await expect(status).toHaveText("");
  await expect(page.getByTestId("error-value")).not.toHaveAttribute("aria-live", /.*/);
  await page.locator("#weight-number").fill("0.0585");
  await page.locator("#weight-number").press("Enter");
  await expect(status).toHaveText(/^Error [\d,]+\.\d\d, [\d,]+\.\d\d to go, best [\d,]+\.\d\d\.$/);
  await page.locator("#bias-number").fill("247.26");
  await page.locator("#bias-number").press("Enter");
  await expect(status).toHaveText("Goal reached: error 447.29, best 447.29.");
});
