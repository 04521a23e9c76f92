import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { error } from "./neuron";
import { violations } from "./axe";

// /insights: a visit that reaches the goal moves the funnel, and
// axe finds no violation on the page, with data, in each language.
// The recording is the main page's (its head script and comment requests),
// so this needs the whole site built (`cargo leptos end-to-end`).

/** The funnel's last row (the goal) on /insights for the last 24 hours, in
 *  `room` (each test its own, so parallel tests' visits do not count): its
 *  count of visits, 0 when no visit is recorded yet. */
async function reachedGoal(page: Page, room?: string): Promise<number> {
  await page.goto(`/insights?period=1&lang=en${room ? `&room=${room}` : ""}`);
  const cell = page.locator("#funnel-table tbody tr:last-child td").first();
  if ((await cell.count()) === 0) {
    await expect(page.getByTestId("insights-empty")).toBeVisible();
    return 0;
  }
  return Number((await cell.innerText()).replace(/,/g, ""));
}

/** A class room of its own for one test, created as a teacher does (this
 *  machine may: no token is set). */
async function newRoom(request: APIRequestContext): Promise<string> {
  const made = await request.post("/insights/rooms", { data: { size: 40 } });
  expect(made.status()).toBe(201);
  return (await made.json()).code;
}

/** A visit to the main page that types the best fit: the goal on its second attempt. */
async function reachTheGoal(page: Page, room?: string) {
  await page.goto(room ? `/?room=${room}` : "/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  expect(error(0.0585, 247.26)).toBeLessThanOrEqual(450);
  await page.locator("#weight-number").fill("0.0585");
  await page.locator("#weight-number").press("Enter");
  await page.locator("#bias-number").fill("247.26");
  await page.locator("#bias-number").press("Enter");
  await expect(page.getByTestId("score")).toHaveClass(/success/);
  await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");
}

test("a visit that reaches the goal moves the funnel on /insights", async ({ page, request }) => {
  const room = await newRoom(request);
  expect(await reachedGoal(page, room)).toBe(0);
  await reachTheGoal(page, room);
  // The visit's beacon and the comment's attempt are written within seconds.
  await expect.poll(() => reachedGoal(page, room), { timeout: 15_000 }).toBe(1);
  await expect(page.locator("#funnel-table")).toBeVisible();
});

test("a visit whose requests say DNT: 1 leaves no row", async ({ browser, page, request }) => {
  const [quiet, control] = [await newRoom(request), await newRoom(request)];
  const dnt = await browser.newContext({ extraHTTPHeaders: { DNT: "1" } });
  const visitor = await dnt.newPage();
  await reachTheGoal(visitor, quiet);
  // A visit without it, made after, is written: the writer is past the first.
  await reachTheGoal(page, control);
  await visitor.goto("about:blank");
  await dnt.close();
  await expect.poll(() => reachedGoal(page, control), { timeout: 15_000 }).toBe(1);
  expect(await reachedGoal(page, quiet)).toBe(0);
  await page.goto(`/insights?period=1&lang=en&room=${quiet}`);
  await expect(page.getByTestId("insights-empty")).toBeVisible();
});

for (const lang of ["en", "pt", "zh"]) {
  test(`axe finds no violation on /insights in ${lang}, with data`, async ({ page }) => {
    // At least one visit with an attempt, whatever ran before.
    if ((await reachedGoal(page)) === 0) {
      await reachTheGoal(page);
      await expect.poll(() => reachedGoal(page), { timeout: 15_000 }).toBeGreaterThan(0);
    }
    await page.goto(`/insights?period=all&lang=${lang}`);
    await expect(page.locator("#funnel-table")).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", { en: "en", pt: "pt-BR", zh: "zh-CN" }[lang]!);
    expect(await violations(page)).toEqual([]);
  });
}

test("axe finds no violation on /insights with no visits to show", async ({ page }) => {
  await page.goto("/insights?room=nobody-here-yet&lang=pt");
  await expect(page.getByTestId("insights-empty")).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test("a teacher creates a room on /insights and gets the link to hand out", async ({ page }) => {
  await page.goto("/insights?lang=en");
  await page.locator("#new-room-size").fill("25");
  await page.getByRole("button", { name: "Create a room" }).click();
  await expect(page.getByRole("heading", { name: "Your class room" })).toBeVisible();
  await expect(page.locator("main")).toContainText("with seats for 25 learners at once");
  const link = page.locator(".insights-links a").first();
  const href = (await link.getAttribute("href")) ?? "";
  const code = new URL(href).searchParams.get("room") ?? "";
  expect(code).toMatch(/^[2-9a-hj-km-np-tw-z]{4}-[2-9a-hj-km-np-tw-z]{4}$/);
  expect(await violations(page)).toEqual([]);
  // The learners' link puts its visitor in the room, on its live view.
  const learner = await (await page.context().browser()!.newContext()).newPage();
  await learner.goto(href);
  await expect(learner.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.locator(".insights-links a").nth(1).click();
  await expect(page.locator("#room-count")).toContainText("1 in the room");
});

test("the filter form keeps the page's language and the tables scroll inside their box", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/insights?lang=pt");
  await page.locator("#filter-period").selectOption("all");
  await page.getByRole("button", { name: "Mostrar" }).click();
  await expect(page).toHaveURL(/period=all/);
  await expect(page).toHaveURL(/lang=pt/);
  await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
  // Nothing wider than the phone: the page never scrolls sideways.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

/** The votes counted on the built-in coach's Chinese comments of the last
 *  24 hours, from /insights' table of what teaches (0 without a row). */
async function votesOnTheBuiltInCoach(page: Page): Promise<number> {
  await page.goto("/insights?period=1&lang=en&language=zh");
  const row = page.locator("#teaching-table tbody tr").filter({ hasText: "built-in coach" });
  if ((await row.count()) === 0) return 0;
  // The cells after the writer: language, comments, helpful ("60% of 5 (…)").
  const helpful = await row.locator("td").nth(2).innerText();
  const of = helpful.match(/of ([\d,]+)/);
  return of ? Number(of[1].replace(/,/g, "")) : 0;
}

test("a vote on a comment shows in /insights' table of what teaches", async ({ page }) => {
  const before = await votesOnTheBuiltInCoach(page);
  await page.goto("/?lang=zh");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.locator("#bias").focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");
  await page.getByTestId("vote-up").click();
  // Other tests vote too, never fewer: at least this one more.
  await expect.poll(() => votesOnTheBuiltInCoach(page), { timeout: 15_000 }).toBeGreaterThan(before);
  const table = page.locator("#teaching-table");
  await expect(table.locator("th").filter({ hasText: "Next attempt better" })).toBeVisible();
  expect(await violations(page)).toEqual([]);
});
