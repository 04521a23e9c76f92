import { expect, test } from "@playwright/test";

// The server under test runs with the repository's models.toml and no HF_TOKEN,
// so every remote model is skipped and the offline commentator answers.

test("releasing a slider makes the coach comment, labelled with who answered", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  const bubble = page.getByTestId("coach-bubble");
  await expect(bubble).toHaveAttribute("data-state", "waiting");

  await page.locator("#bias").focus();
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith("/api/comment")),
    page.keyboard.press("ArrowRight"),
  ]);
  // The page sends the point, so the coach knows which move helps.
  expect(request.postDataJSON()).toMatchObject({ weight: 0.1, bias: 150.1 });
  await expect(bubble).toHaveAttribute("data-state", "said");
  const first = (await page.getByTestId("coach-text").textContent())!.trim();
  expect(first.length).toBeGreaterThan(0);
  await expect(page.getByTestId("coach-model")).toHaveText("built-in coach");
  // From w 0.1, b 150.1 the best single move is the bias, up by about 13.
  expect(first).toContain("Try to raise the bias by about 13.");

  // The next attempt (same tier) gets a different comment.
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("coach-text")).not.toHaveText(first);
  await expect(bubble).toHaveAttribute("data-state", "said");
});

test("reaching the goal gets a celebration", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.locator("#weight-number").fill("0.0585");
  await page.locator("#weight-number").press("Enter");
  await page.locator("#bias-number").fill("247.26");
  await page.locator("#bias-number").press("Enter");
  await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");
  // Every goal-tier phrase mentions the error or the optimum, or the goal itself.
  await expect(page.getByTestId("coach-text")).toHaveText(/447\.29|450|did it|Goal|trained/);
});
