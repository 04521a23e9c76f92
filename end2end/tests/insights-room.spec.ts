import { expect, test, type APIRequestContext } from "@playwright/test";
import { error } from "./neuron";
import { violations } from "./axe";

// A class room's live view: a learner who opens `/?room=CODE` and
// tries shows up as a dot on `/insights/room/CODE`, which moves as they try
// and turns into a star at the goal; axe finds nothing on the view. Each test
// has a room of its own (the server's data outlives a test).

// A class room of its own, created as a teacher does (this machine may: no
// token is set); `name` only says which test it is for in a failure.
async function room(request: APIRequestContext, name: string): Promise<string> {
  const made = await request.post("/insights/rooms", { data: { size: 40 } });
  expect(made.status(), name).toBe(201);
  return (await made.json()).code;
}

// A visit id as the page's head script makes them (16–32 of A-Z a-z 0-9 _ -).
const visitId = () => `e2e${Math.random().toString(36).slice(2)}xxxxxxxxxxxxxxxx`.slice(0, 22);

// A visit in `code` and its attempts, as the page's script and comment
// requests send them.
async function learner(request: APIRequestContext, code: string) {
  const visit = visitId();
  const started = await request.post("/insights/events", {
    headers: { "content-type": "text/plain;charset=UTF-8" },
    data: JSON.stringify({ visit, lang: "en", layout: "page", width: 1280, room: code }),
  });
  expect(started.status()).toBe(204);
  let n = 0;
  return async (weight: number, bias: number) => {
    n += 1;
    const comment = await request.post("/api/comment", {
      data: { error: error(weight, bias), weight, bias, lang: "en", visit, attempt: n },
    });
    expect(comment.status()).toBe(200);
  };
}

test("a visitor in a room shows up as a dot on that room's live view", async ({ browser, request }) => {
  const code = await room(request, "page");
  const teacher = await browser.newPage();
  await teacher.goto(`/insights/room/${code}`);
  await expect(teacher.locator("#room-count")).toContainText("0 in the room");
  await expect(teacher.locator(".room-dots .dot")).toHaveCount(0);

  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/?room=${code}`);
  await expect(visitor.locator("html")).toHaveAttribute("data-hydrated", "true");
  await visitor.locator("#weight").focus();
  await visitor.keyboard.press("ArrowRight");
  await expect(visitor.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");

  await expect(teacher.locator(".room-dots .dot")).toHaveCount(1);
  await expect(teacher.locator("#room-count")).toContainText("1 in the room");
});

test("dots move as learners try, and a learner at the goal is a star", async ({ page, request }) => {
  const code = await room(request, "move");
  const first = await learner(request, code);
  const second = await learner(request, code);
  await first(0.1, 150);
  await page.goto(`/insights/room/${code}`);
  // The server may not have written the attempt yet: the view catches up.
  const dots = page.locator(".room-dots .dot");
  await expect(dots).toHaveCount(1);
  await expect(page.locator("#room-count")).toContainText("2 in the room");
  await expect(page.locator("#room-count")).toContainText("1 yet to try");
  const dot = dots.first();
  const key = await dot.getAttribute("data-key");
  const before = await dot.boundingBox();

  await first(0.0585, 247.26);
  await second(0.2, 100);
  await expect(page.locator(".room-dots .dot.goal")).toHaveCount(1);
  await expect(dots).toHaveCount(2);
  const star = page.locator(`.room-dots [data-key="${key}"]`);
  await expect(star).toHaveClass("dot goal");
  await expect(star.locator("use")).toHaveAttribute("href", "#room-star");
  // Up and to the left: a lower weight and a higher bias (after the move's transition).
  await expect.poll(async () => (await star.boundingBox())?.x ?? 0).toBeLessThan((before?.x ?? 0) - 20);
  await expect.poll(async () => (await star.boundingBox())?.y ?? 0).toBeLessThan((before?.y ?? 0) - 20);
  await expect(page.locator('[data-rung="5"] .n')).toHaveText("1");
});

for (const [lang, words] of [
  ["en", "in the room"],
  ["pt", "na sala"],
  ["zh", "教室里"],
]) {
  test(`axe finds no violation on a room's live view with learners in it (${lang})`, async ({ page, request }) => {
    const code = await room(request, `axe-${lang}`);
    const one = await learner(request, code);
    const two = await learner(request, code);
    await one(0.1, 150);
    await two(0.0585, 247.26);
    await page.goto(`/insights/room/${code}?lang=${lang}`);
    await expect(page.locator(".room-dots .dot")).toHaveCount(2);
    await expect(page.locator("#room-count")).toContainText(words);
    expect(await violations(page)).toEqual([]);
  });
}
