import { expect, test } from "@playwright/test";

// The app under test, and a blog page on another origin (the fake upstream's port).
const APP = process.env.BASE_URL ?? "http://127.0.0.1:3000";
const BLOG = "http://127.0.0.1:3190";

test("inside an iframe on another site, the compact page hydrates, sizes its frame, and a slider drag works", async ({ page }) => {
  await page.goto(`${BLOG}/host.html?src=${encodeURIComponent(`${APP}/embed`)}`);
  const frame = page.frameLocator("#jay");
  await expect(frame.locator("html")).toHaveAttribute("data-hydrated", "true");

  // Compact: no introduction, a link to the full page.
  await expect(frame.locator("header.intro")).toHaveCount(0);
  await expect(frame.getByRole("link", { name: /Jay Trainer/ })).toBeVisible();

  // The blog heard the page's height, from the app's origin, and sized the frame.
  await expect.poll(() => page.evaluate(() => (window as any).heights.length)).toBeGreaterThan(0);
  const last = await page.evaluate(() => (window as any).heights.at(-1));
  expect(last.origin).toBe(new URL(APP).origin);
  expect(last.height).toBeGreaterThan(300);
  await expect(page.locator("#jay")).toHaveAttribute("height", String(last.height));

  // Drag the weight slider with the mouse, inside the frame: its comment
  // request is the page's own (same-origin), never refused as cross-site.
  const commented = page.waitForResponse((r) => r.url().endsWith("/api/comment"));
  const before = await frame.getByTestId("error-value").textContent();
  const box = await frame.locator("#weight").boundingBox();
  if (!box) throw new Error("no slider");
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.3, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.2, y, { steps: 5 });
  await page.mouse.up();
  await expect(frame.getByTestId("error-value")).not.toHaveText(before ?? "");
  await expect(frame.getByTestId("attempts-summary")).toHaveAttribute("data-count", "1");
  const comment = await commented;
  expect(comment.status()).toBe(200);
  expect(await comment.request().headerValue("sec-fetch-site")).toBe("same-origin");
});

test("?embed=1 is the same compact page", async ({ page }) => {
  await page.goto("/?embed=1");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(page.locator("main.simulator.embed")).toBeVisible();
  await expect(page.locator("header.intro")).toHaveCount(0);
});
