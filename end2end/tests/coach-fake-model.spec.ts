import { expect, test } from "@playwright/test";

// Against the second app instance (port 3002), whose only model is served by the
// fake upstream that playwright.config.ts starts.
test.use({ baseURL: "http://127.0.0.1:3002" });

test("the bubble shows the fake model's comment, cleaned, with its label", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.locator("#weight").focus();
  await page.keyboard.press("ArrowLeft");

  const bubble = page.getByTestId("coach-bubble");
  await expect(bubble).toHaveAttribute("data-state", "said");
  // Quotes and everything after the |fim| marker are gone.
  await expect(page.getByTestId("coach-text")).toHaveText("Fake coach on attempt 1: nice move!");
  await expect(page.getByTestId("coach-model")).toHaveText("fakechat · chat");
});

test("a newer attempt cancels the older one's request, whose answer never shows", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.locator("#bias").focus();
  // Attempt 1 is answered after 1.5 s by the fake; attempt 2 at once.
  const [first] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith("/api/comment")),
    page.keyboard.press("ArrowRight"),
  ]);
  expect(first.postData()).toContain('"attempts":[]');
  await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "typing");
  const cancelled = page.waitForEvent("requestfailed", (r) => r === first);
  await page.keyboard.press("ArrowRight");
  // The browser aborted attempt 1's request: its answer can never arrive.
  expect((await cancelled).failure()?.errorText).toBe("net::ERR_ABORTED");
  await expect(page.getByTestId("coach-text")).toHaveText("Fake coach on attempt 2: nice move!");
  await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");
});

test("GET /error and /models speak JSON with the model's name", async ({ request }) => {
  const comment = await request.get("/error?error=812.5&tentativas=13359.08,900");
  expect(comment.status()).toBe(200);
  const body = await comment.json();
  expect(body).toMatchObject({ model: "fakechat", provider: "chat", tier: "close", fallback: false });
  expect(body.comment).toBe("Fake coach on attempt 3: nice move!");

  const models = await (await request.get("/models")).json();
  expect(models.models[0]).toMatchObject({ alias: "fakechat", probability: 1 });
  expect(models.models[0].stats.total).toBeGreaterThanOrEqual(1);

  const bad = await request.get("/error?error=abc");
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toMatchObject({ field: "error" });
});
