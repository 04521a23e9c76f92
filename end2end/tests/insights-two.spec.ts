import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { violations } from "./axe";

// Lesson 2 in the insights: a visit to /two is recorded as lesson 2's (its
// head script's start, its comment requests), moves lesson 2's funnel on
// /insights?lesson=2 and not lesson 1's, and shows on a class room's view
// of lesson 2; axe finds nothing on either page.

async function newRoom(request: APIRequestContext): Promise<string> {
  const made = await request.post("/insights/rooms", { data: { size: 40 } });
  expect(made.status()).toBe(201);
  return (await made.json()).code;
}

/** The funnel's last row (the goal) for `lesson` in `room`, the last 24 hours. */
async function reachedGoal(page: Page, lesson: number, room: string): Promise<number> {
  await page.goto(`/insights?period=1&lang=en&lesson=${lesson}&room=${room}`);
  const cell = page.locator("#funnel-table tbody tr:last-child td").first();
  if ((await cell.count()) === 0) {
    await expect(page.getByTestId("insights-empty")).toBeVisible();
    return 0;
  }
  return Number((await cell.innerText()).replace(/,/g, ""));
}

/** A visit to /two that types a point below 1,420 (w2 negative). */
async function reachTheGoal(page: Page, room: string) {
  await page.goto(`/two?lang=en&room=${room}`);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  const asked = page.waitForRequest((r) => r.url().endsWith("/api/comment") && r.postDataJSON().attempt === 3);
  for (const [key, value] of [["w1", "0.185"], ["w2", "-9"], ["b", "4"]]) {
    await page.locator(`#${key}-number`).fill(value);
    await page.locator(`#${key}-number`).press("Enter");
  }
  await expect(page.getByTestId("score")).toHaveClass(/success/);
  const body = (await asked).postDataJSON();
  expect(body.lesson).toBe(2);
  expect(body.visit).toMatch(/^[A-Za-z0-9_-]{16,32}$/);
  await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");
}

test("a visit to /two that reaches the goal moves lesson 2's funnel, not lesson 1's", async ({ page, request }) => {
  const room = await newRoom(request);
  const start = page.waitForRequest((r) => r.url().endsWith("/insights/events") && /"lesson":2/.test(r.postData() ?? ""));
  await reachTheGoal(page, room);
  await start;
  await expect.poll(() => reachedGoal(page, 2, room), { timeout: 15_000 }).toBe(1);
  await expect(page.locator("#funnel-table")).toContainText("Reached the goal: error below 1,420");
  await expect(page.locator(".insights-map-two")).toBeVisible();
  expect(await reachedGoal(page, 1, room)).toBe(0);
});

// One test a language: each runs axe twice, which takes seconds on a busy machine.
for (const lang of ["en", "pt", "zh"]) {
  test(`axe finds no violation on lesson 2's insights and room view, with data (${lang})`, async ({ browser, page, request }) => {
    const room = await newRoom(request);
    const learner = await browser.newPage();
    await reachTheGoal(learner, room);
    await expect.poll(() => reachedGoal(page, 2, room), { timeout: 15_000 }).toBe(1);
    await page.goto(`/insights?period=1&lesson=2&room=${room}&lang=${lang}`);
    await expect(page.locator("#filter-lesson")).toHaveValue("2");
    expect(await violations(page)).toEqual([]);
    await page.goto(`/insights/room/${room}?lesson=2&lang=${lang}`);
    await expect(page.locator(".room-dots .dot")).toHaveCount(1);
    expect(await violations(page)).toEqual([]);
    await learner.close();
  });
}
