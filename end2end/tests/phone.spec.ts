import { expect, test, type Page } from "@playwright/test";

// The proof that every visitor can reach the goal: on a 360×740 touch screen
// without typing, and with the keyboard alone; each attempt is one coach
// request. Also: the error and the latest comment stay in view on a phone,
// the charts' labels are at least 11 px on screen, and the sliders' thumbs are
// 28 px.

const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true };

async function open(page: Page, path = "/") {
  await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

/** Counts the coach's requests (one per attempt is the rule). */
function commentRequests(page: Page) {
  const sent: string[] = [];
  page.on("request", (r) => r.url().endsWith("/api/comment") && sent.push(r.url()));
  return sent;
}

const errorShown = async (page: Page) =>
  Number((await page.getByTestId("error-value").textContent())!.replace(/,/g, ""));

const attemptCount = async (page: Page) =>
  Number(await page.getByTestId("attempts-summary").getAttribute("data-count"));

test.describe("on a 360×740 touch screen", () => {
  test.use(PHONE);

  test("the goal is reached without typing in at most 12 taps", async ({ page }) => {
    const sent = commentRequests(page);
    await open(page);
    let taps = 0;
    // Zoom the map to the valley, then tap the middle of the green island.
    await page.getByTestId("landscape-zoom").tap();
    taps++;
    const island = page.locator(".landscape .contour.island");
    await island.scrollIntoViewIfNeeded();
    const box = await island.boundingBox();
    if (!box) throw new Error("no island on the map");
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    taps++;
    await expect(page.getByTestId("score")).toHaveClass(/success/);
    expect(await errorShown(page)).toBeLessThan(450);
    expect(taps).toBeLessThanOrEqual(12);
    // One attempt, one comment.
    expect(await attemptCount(page)).toBe(1);
    await expect.poll(() => sent.length).toBe(1);
    test.info().annotations.push({ type: "taps", description: String(taps) });
  });

  test("the error and the latest comment stay in view while the controls are used", async ({ page }) => {
    await open(page);
    for (const name of ["Weight −0.001", "Bias +1"]) {
      await page.getByRole("button", { name, exact: true }).tap();
      await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");
      await expect(page.getByTestId("error-value")).toBeInViewport({ ratio: 1 });
      await expect(page.getByTestId("coach-text")).toBeInViewport({ ratio: 1 });
    }
    // Further down, on the map, too.
    await page.getByTestId("landscape-zoom").tap();
    await page.getByTestId("landscape-map").scrollIntoViewIfNeeded();
    await expect(page.getByTestId("landscape-map")).toBeInViewport();
    await expect(page.getByTestId("error-value")).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId("coach-text")).toBeInViewport({ ratio: 1 });
  });
});

test("the goal is reached with the keyboard alone in at most 30 key presses", async ({ page }) => {
  const sent = commentRequests(page);
  await open(page);
  let keys = 0;
  const press = async (key: string) => {
    keys++;
    await page.keyboard.press(key);
  };
  const tabTo = async (selector: string) => {
    for (let i = 0; i < 20 && !(await page.locator(selector).evaluate((e) => e === document.activeElement)); i++) {
      await press("Tab");
    }
    await expect(page.locator(selector)).toBeFocused();
  };
  // Type the weight, move on (that records it), type the bias, Enter.
  await tabTo("#weight-number");
  for (const key of "0.0585") await press(key);
  await tabTo("#bias-number");
  for (const key of "247.3") await press(key);
  await press("Enter");
  await expect(page.getByTestId("score")).toHaveClass(/success/);
  expect(await errorShown(page)).toBeLessThan(450);
  expect(keys).toBeLessThanOrEqual(30);
  expect(await attemptCount(page)).toBe(2);
  await expect.poll(() => sent.length).toBe(2);
  test.info().annotations.push({ type: "keys", description: String(keys) });
});

for (const [name, size, path] of [
  ["phone", { width: 360, height: 740 }, "/"],
  ["iframe", { width: 800, height: 600 }, "/embed"],
  ["desktop", { width: 1280, height: 800 }, "/"],
] as const) {
  test(`${name} (${size.width}×${size.height}): chart labels are at least 11 px, thumbs 28 px; screenshot`, async ({ page }) => {
    await page.setViewportSize(size);
    await open(page, path);
    // A few attempts, so the screenshot shows a trail, a comment and the table.
    await page.getByRole("button", { name: "Weight −0.001", exact: true }).click();
    await page.getByTestId("best-bias").click();
    await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");

    // Every label of every chart, at its size on the screen.
    const smallest = await page.evaluate(() => {
      let min = Infinity;
      for (const text of Array.from(document.querySelectorAll("svg text")) as SVGTextElement[]) {
        if (!text.getClientRects().length) continue;
        const ctm = text.getScreenCTM();
        if (!ctm) continue;
        min = Math.min(min, parseFloat(getComputedStyle(text).fontSize) * Math.hypot(ctm.a, ctm.b));
      }
      return min;
    });
    expect(smallest).toBeGreaterThanOrEqual(11);
    test.info().annotations.push({ type: "smallest label (px)", description: smallest.toFixed(1) });

    await page.evaluate(() => window.scrollTo(0, 0));
    const shot = test.info().outputPath(`${name}-${size.width}x${size.height}.png`);
    await page.screenshot({ path: shot, fullPage: name !== "desktop" });
    await test.info().attach(`${name} screenshot`, { path: shot, contentType: "image/png" });

    // A 28 px thumb: a press 13 px from the slider's left end is still on the
    // thumb's half-width, so it sets the minimum (a 16 px thumb would not).
    const slider = page.locator("#bias");
    await slider.evaluate((e) => e.scrollIntoView({ block: "center" }));
    const box = await slider.boundingBox();
    if (!box) throw new Error("no slider");
    expect(box.height).toBeGreaterThanOrEqual(28);
    await page.mouse.click(box.x + 13, box.y + box.height / 2);
    await expect(slider).toHaveValue("0");

  });
}
