import { expect, test, type Page, type Request } from "@playwright/test";
import { error, grouped } from "./neuron";
import { violations } from "./axe";

// Nothing the visitor did is lost. "Start over" keeps the
// attempts and the best and clears the bubble; a value typed or dragged before
// the WASM has taken over the page is kept and recorded as an attempt.

/** Opens `path` and waits until the WASM has hydrated the page. */
async function open(page: Page, path = "/") {
  await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

/** Types `value` into a number box and presses Enter (one attempt). */
async function type(page: Page, id: "weight" | "bias", value: string) {
  await page.locator(`#${id}-number`).fill(value);
  await page.locator(`#${id}-number`).press("Enter");
}

/** The body of every request to the coach, in order. */
function coachRequests(page: Page) {
  const bodies: { error: number; attempts: number[]; weight: number; bias: number }[] = [];
  page.on("request", (r: Request) => {
    if (r.url().endsWith("/api/comment")) bodies.push(r.postDataJSON());
  });
  return bodies;
}

/** The descent path's first point and the model's marker, in map coordinates. */
async function labStartAndMarker(page: Page) {
  const points = (await page.getByTestId("descent-path").getAttribute("points"))!.trim();
  const [x, y] = points.split(" ")[0].split(",").map(Number);
  const transform = (await page.getByTestId("landscape-marker").getAttribute("transform"))!;
  const [, mx, my] = /translate\(([-\d.]+) ([-\d.]+)\)/.exec(transform)!.map(Number);
  return { lab: [x, y], marker: [mx, my] };
}

test("start over: the model goes back, the attempts and the best stay, the bubble and the lab start afresh", async ({
  page,
}) => {
  const asked = coachRequests(page);
  await open(page);
  await type(page, "weight", "0.0585");
  await type(page, "bias", "247.26");
  await expect(page.getByTestId("attempt")).toHaveCount(2);
  const bubble = page.getByTestId("coach-bubble");
  await expect(bubble).toHaveAttribute("data-state", "said");
  const best = grouped(error(0.0585, 247.26));
  await expect(page.getByTestId("attempts-summary")).toContainText(best);
  const rungs = await page.locator("[data-testid=rung].reached").count();
  expect(rungs).toBeGreaterThanOrEqual(4);
  // The lab runs from the model's point.
  await page.getByTestId("gd-reset").click();
  await page.getByTestId("gd-step10").click();

  await page.getByTestId("start-over").click();

  // The model is at the guide's start...
  await expect(page.getByTestId("error-value")).toHaveText("799.09");
  await expect(page.locator("#weight-number")).toHaveValue("0.1");
  await expect(page.locator("#bias-number")).toHaveValue("150");
  // ...the history and the best are kept...
  await expect(page.getByTestId("attempt")).toHaveCount(2);
  await expect(page.getByTestId("attempts-summary")).toHaveAttribute("data-count", "2");
  await expect(page.getByTestId("attempts-summary")).toContainText(best);
  await expect(page.getByTestId("copy-best")).toBeEnabled();
  await expect(page.locator(".attempt-list li.best")).toContainText("w 0.0585 · b 247.26");
  await expect(page.locator("[data-testid=rung].reached")).toHaveCount(rungs);
  // ...the bubble says nothing stale: it waits for the next attempt...
  await expect(bubble).toHaveAttribute("data-state", "waiting");
  await expect(page.getByTestId("coach-text")).toHaveText("Move a slider and I'll tell you what I think.");
  // ...a screen reader hears that the start over kept the attempts...
  await expect(page.getByTestId("announcer")).toHaveText(
    `Back at the start: error 799.09. Your attempts are kept; best ${best}.`,
  );
  // ...and the lab starts again where the model now is.
  await expect(page.getByTestId("gd-progress")).toContainText("799.09");
  const { lab, marker } = await labStartAndMarker(page);
  expect(lab).toEqual(marker);
  expect(asked.length).toBe(2);

  // The next attempt starts a new run for the coach (its earlier errors are
  // this run's: none), is numbered after the kept ones, and is marked as the
  // first after the start over.
  await page.getByRole("button", { name: "Bias +1", exact: true }).click();
  await expect(page.getByTestId("attempt")).toHaveCount(3);
  await expect(bubble).toHaveAttribute("data-state", "said");
  expect(asked.length).toBe(3);
  expect(asked[2]).toMatchObject({ weight: 0.1, bias: 151, attempts: [] });
  const third = page.getByTestId("attempt").filter({ hasText: "#3" });
  await expect(third).toContainText("started over");
  await expect(page.getByTestId("attempt").filter({ hasText: "started over" })).toHaveCount(1);
  await expect(page.getByTestId("attempts-summary")).toContainText(best);
  // The mark and the kept list stay accessible.
  expect(await violations(page)).toEqual([]);

  // The best is still the one to share.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByTestId("copy-best").click();
  await expect(page.getByTestId("share-done")).toBeVisible();
  const copied = new URL(await page.evaluate(() => navigator.clipboard.readText()));
  expect(copied.searchParams.get("w")).toBe("0.0585");
  expect(copied.searchParams.get("b")).toBe("247.26");
});

test("start over in Portuguese: the bubble waits in Portuguese, the best is kept", async ({ page }) => {
  await open(page, "/?lang=pt");
  await type(page, "weight", "0.0585");
  await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");
  await page.getByTestId("start-over").click();
  await expect(page.getByTestId("error-value")).toHaveText("799,09");
  await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "waiting");
  await expect(page.getByTestId("coach-text")).toHaveText("Mova um controle e eu digo o que acho.");
  await expect(page.getByTestId("attempt")).toHaveCount(1);
  await expect(page.getByTestId("copy-best")).toBeEnabled();
  await expect(page.getByTestId("announcer")).toContainText("De volta ao início");
});

/**
 * Opens `path` with the WASM held back: the server-rendered page is there and
 * usable, but nothing has hydrated it until the returned function is called.
 */
async function openHeld(page: Page, path: string) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route("**/*.wasm", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(path, { waitUntil: "domcontentloaded" });
  await expect(page.getByTestId("error-value")).toHaveText(/799[.,]09/);
  return release;
}

/** Drags a slider's thumb with the mouse from where it is to `toFraction` of its track. */
async function drag(page: Page, id: "weight" | "bias", toFraction: number) {
  const box = (await page.locator(`#${id}`).boundingBox())!;
  const y = box.y + box.height / 2;
  const from = await page
    .locator(`#${id}`)
    .evaluate((el: HTMLInputElement) => (Number(el.value) - Number(el.min)) / (Number(el.max) - Number(el.min)));
  await page.mouse.move(box.x + box.width * from, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * ((from + toFraction) / 2), y, { steps: 4 });
  await page.mouse.move(box.x + box.width * toFraction, y, { steps: 4 });
  await page.mouse.up();
}

test("a slider dragged and a value typed before hydration are kept and recorded as one attempt", async ({
  page,
}) => {
  const asked = coachRequests(page);
  const release = await openHeld(page, "/");
  await drag(page, "weight", 0.2);
  await page.locator("#bias-number").fill("245");
  await page.locator("#bias-number").press("Tab");
  const w = Number(await page.locator("#weight").inputValue());
  expect(w).not.toBe(0.1);
  // Still the server's page: nothing has run yet.
  await expect(page.locator("html")).not.toHaveAttribute("data-hydrated", "true");
  await expect(page.getByTestId("error-value")).toHaveText("799.09");

  release();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(page.locator("#weight")).toHaveValue(String(w));
  await expect(page.locator("#bias-number")).toHaveValue("245");
  await expect(page.getByTestId("error-value")).toHaveText(grouped(error(w, 245)));
  await expect(page.getByTestId("attempt")).toHaveCount(1);
  await expect(page.getByTestId("attempt")).toContainText(grouped(error(w, 245)));
  await expect(page.getByTestId("attempt")).toContainText(`w ${w} · b 245`);
  await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");
  expect(asked).toHaveLength(1);
  expect(asked[0]).toMatchObject({ weight: w, bias: 245, attempts: [] });
  await expect.poll(() => new URL(page.url()).searchParams.get("b")).toBe("245");
});

test("a value typed before hydration on a Portuguese page is kept, in its words and numbers", async ({ page }) => {
  const release = await openHeld(page, "/?lang=pt");
  await page.locator("#weight-number").fill("0.06");
  await page.locator("#weight-number").press("Enter");
  await expect(page.locator("html")).not.toHaveAttribute("data-hydrated", "true");
  release();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  const shown = grouped(error(0.06, 150)).replace(/,/g, " ").replace(".", ",").replace(/ /g, ".");
  await expect(page.getByTestId("error-value")).toHaveText(shown);
  await expect(page.getByTestId("attempt")).toHaveCount(1);
  await expect(page.getByTestId("attempt")).toContainText(shown);
  await expect(page.getByTestId("attempt")).toContainText("w 0,06 · b 150");
  await expect(page.getByTestId("attempts-summary")).toContainText(shown);
});

test("nothing touched before hydration: no attempt", async ({ page }) => {
  const release = await openHeld(page, "/");
  release();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(page.getByTestId("attempts-summary")).toHaveAttribute("data-count", "0");
  await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "waiting");
});
