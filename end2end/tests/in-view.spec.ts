import { expect, test, type Locator, type Page } from "@playwright/test";

// Whatever control a visitor uses, the current error and the
// latest comment are in view afterwards and do not cover that control; on a
// phone the strip is at most 100 px tall with a comment showing, and shows the
// whole comment on demand. In the 800×600 embed every control is
// inside the frame without scrolling.

const LANGS = ["en", "pt", "zh"] as const;
const PHONE = { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true };

async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  !(a.y + a.height <= b.y || b.y + b.height <= a.y || a.x + a.width <= b.x || b.x + b.width <= a.x);

/** After using `control`: a comment came, the error and the comment are fully
 *  in the viewport, and the strip does not cover the control. */
async function feedbackInView(page: Page, control: Locator, what: string) {
  attempts += 1;
  await expect(page.getByTestId("attempts-summary"), what).toHaveAttribute("data-count", String(attempts));
  await expect(page.getByTestId("coach-bubble"), what).toHaveAttribute("data-state", "said");
  await expect(page.getByTestId("error-value"), what).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId("coach-text"), what).toBeInViewport({ ratio: 1 });
  const live = await page.getByTestId("live").boundingBox();
  const used = await control.boundingBox();
  if (!live || !used) throw new Error(`${what}: no box`);
  expect(overlaps(live, used), `${what}: the strip covers the control`).toBe(false);
}

/** Attempts recorded so far on the page under test (one per control used). */
let attempts = 0;

/** Each kind of control, used once; `tap` on touch screens. */
async function useEachControl(page: Page, touch: boolean) {
  attempts = 0;
  const press = (l: Locator) => (touch ? l.tap() : l.click());
  // A nudge button (the bias's +1).
  const nudge = page.locator(".param").nth(1).locator(".nudge").last();
  await press(nudge);
  await feedbackInView(page, nudge, "nudge");
  // The keyboard: focus a best-response button and press Enter, as Tab would.
  const best = page.getByTestId("best-bias");
  await best.focus();
  await page.keyboard.press("Enter");
  await feedbackInView(page, best, "best bias by keyboard");
  // A slider dragged.
  const weight = page.locator("#weight");
  await weight.scrollIntoViewIfNeeded();
  const box = (await weight.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.33, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.2, y, { steps: 4 });
  await page.mouse.up();
  await feedbackInView(page, weight, "weight slider");
  // The map, further down the page.
  const map = page.getByTestId("landscape-map");
  await map.scrollIntoViewIfNeeded();
  await press(map);
  await feedbackInView(page, map, "map");
  // The descent lab's "move my model" button, after a step.
  await press(page.getByTestId("gd-step"));
  const apply = page.getByTestId("gd-apply");
  await press(apply);
  await feedbackInView(page, apply, "lab");
}

for (const lang of LANGS) {
  test(`${lang}: on a desktop the error and the comment stay in view beside every control`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await open(page, `/?lang=${lang}`);
    await useEachControl(page, false);
  });

  test.describe(`${lang}: on a 360×740 phone`, () => {
    test.use(PHONE);

    test("the strip stays in view, at most 100 px, and opens on demand", async ({ page }) => {
      await open(page, `/?lang=${lang}`);
      await useEachControl(page, true);
      const live = page.getByTestId("live");
      const height = async () => (await live.boundingBox())!.height;
      expect(await height()).toBeLessThanOrEqual(100);
      // The error has a label of its own on the phone.
      await expect(page.locator(".live .label-short")).toBeVisible();
      // The whole comment, on demand, and back.
      const more = page.getByTestId("live-more");
      await more.tap();
      await expect(more).toHaveAttribute("aria-expanded", "true");
      await expect(page.locator(".live .bubble-label")).toBeVisible();
      await more.tap();
      await expect(more).toHaveAttribute("aria-expanded", "false");
      expect(await height()).toBeLessThanOrEqual(100);
    });
  });

  test(`${lang}: in the 800×600 embed every control is in the frame`, async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 600 });
    await open(page, `/embed?lang=${lang}`);
    const controls = [
      page.locator("#weight"),
      page.locator("#bias"),
      ...(await page.locator(".param-nudges .nudge").all()),
      page.getByTestId("best-bias"),
      page.getByTestId("best-weight"),
      page.getByTestId("start-over"),
      page.getByTestId("error-value"),
      page.getByTestId("coach-text"),
    ];
    for (const c of controls) {
      const box = (await c.boundingBox())!;
      expect(box.y + box.height, await c.evaluate((e) => e.outerHTML.slice(0, 80))).toBeLessThanOrEqual(600);
    }
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });
}

// On a phone the chart's y-axis title clears its tick labels, and
// the table's header wraps at most once, in every language.
for (const lang of LANGS) {
  test.describe(`${lang}: the phone's chart and table`, () => {
    test.use(PHONE);

    test("the y-axis title does not overlap the price labels; headers take at most two lines", async ({ page }) => {
      await open(page, `/?lang=${lang}`);
      const title = (await page.locator("figure.chart text.axis-label[transform]").boundingBox())!;
      for (const tick of await page.locator("figure.chart .y-axis .tick text, figure.chart .y-axis text").all()) {
        const box = await tick.boundingBox();
        if (box) expect(overlaps(title, box), `${await tick.textContent()}`).toBe(false);
      }
      const heights = await page.$$eval("table.houses thead th", (ths) =>
        ths.map((th) => th.getBoundingClientRect().height),
      );
      const line = await page.$eval("table.houses thead th", (th) => parseFloat(getComputedStyle(th).lineHeight) || 16);
      for (const h of heights) expect(h).toBeLessThan(3 * line);
    });
  });
}
