import { expect, test, type Page } from "@playwright/test";
import { violations } from "./axe";

// Under each comment, two buttons say whether it helped: hidden until a
// comment shows, the chosen one pressed, changeable, reset by the next
// comment; by mouse, keyboard and touch alike, in every language, and
// without moving the layout.

async function commented(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.locator("#bias").focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");
}

const NAMES = {
  en: ["Was this comment helpful?", "Helpful", "Not helpful"],
  pt: ["Este comentário ajudou?", "Ajudou", "Não ajudou"],
  zh: ["这条评论有帮助吗？", "有帮助", "没帮助"],
} as const;

for (const [lang, [group, up, down]] of Object.entries(NAMES)) {
  test(`a vote on a comment is cast, changed and reset by the next comment (${lang})`, async ({ page }) => {
    await page.goto(`/?lang=${lang}`);
    const votes = page.getByRole("group", { name: group });
    // Before any comment: there, taking its place, but not shown.
    await expect(votes).toBeHidden();
    await commented(page);
    const helpful = votes.getByRole("button", { name: up, exact: true });
    const unhelpful = votes.getByRole("button", { name: down, exact: true });
    await expect(helpful).toBeVisible();
    await expect(helpful).toHaveAttribute("aria-pressed", "false");
    const [request, response] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith("/api/feedback")),
      page.waitForResponse((r) => r.url().endsWith("/api/feedback")),
      helpful.click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ vote: "up" });
    expect(request.postDataJSON().id.length).toBeGreaterThan(20);
    expect(response.status()).toBe(204);
    await expect(helpful).toHaveAttribute("aria-pressed", "true");
    await expect(unhelpful).toHaveAttribute("aria-pressed", "false");
    // Changed by the keyboard: the other button, Space.
    await unhelpful.focus();
    const changed = page.waitForRequest((r) => r.url().endsWith("/api/feedback"));
    await page.keyboard.press("Space");
    expect((await changed).postDataJSON()).toMatchObject({ vote: "down" });
    await expect(unhelpful).toHaveAttribute("aria-pressed", "true");
    await expect(helpful).toHaveAttribute("aria-pressed", "false");
    // The next comment starts unvoted.
    const before = await page.getByTestId("coach-text").textContent();
    await page.locator("#bias").focus();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByTestId("coach-text")).not.toHaveText(before ?? "");
    await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");
    await expect(unhelpful).toHaveAttribute("aria-pressed", "false");
    expect(await violations(page)).toEqual([]);
  });
}

test("the vote buttons take their place before they show: showing them moves nothing", async ({ page }) => {
  await page.goto("/");
  await commented(page);
  const bubble = page.getByTestId("coach-bubble");
  const shown = await bubble.boundingBox();
  // The same comment with the buttons hidden, as before it came.
  await page.getByTestId("coach-votes").evaluate((g) => g.classList.add("idle"));
  await expect(page.getByTestId("coach-votes")).toBeHidden();
  expect(await bubble.boundingBox()).toEqual(shown);
});

test.describe("on a 360×740 touch screen", () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

  test("a vote is a tap away and the strip stays within its 100 px", async ({ page }) => {
    await page.goto("/?lang=pt");
    await commented(page);
    const live = page.getByTestId("live");
    expect((await live.boundingBox())!.height).toBeLessThanOrEqual(100);
    const up = page.getByTestId("vote-up");
    await expect(up).toBeInViewport({ ratio: 1 });
    const box = (await up.boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(28);
    await up.tap();
    await expect(up).toHaveAttribute("aria-pressed", "true");
    expect((await live.boundingBox())!.height).toBeLessThanOrEqual(100);
  });
});
