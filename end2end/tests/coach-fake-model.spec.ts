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

test("GET /error speaks JSON to JSON callers, and /models with the original server's names too", async ({ request }) => {
  const json = { headers: { accept: "application/json" } };
  const comment = await request.get("/error?error=812.5&tentativas=13359.08,900", json);
  expect(comment.status()).toBe(200);
  expect(comment.headers()["content-type"]).toContain("application/json");
  const body = await comment.json();
  // No language named: this instance's default, Portuguese.
  expect(body).toMatchObject({ model: "fakechat", provider: "chat", tier: "close", lang: "pt", fallback: false });
  expect(body.comment).toBe("Treinador de mentira na tentativa 3: boa jogada!");

  const models = await (await request.get("/models")).json();
  expect(models.models[0]).toMatchObject({ alias: "fakechat", probability: 1, parcela: 1 });
  expect(models.models[0].stats.total).toBeGreaterThanOrEqual(1);
  expect(models.models[0].erros).toBe(models.models[0].stats.errors);

  const bad = await request.get("/error?error=abc", json);
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toMatchObject({ field: "error" });
});

// The original server's callers, against the release binary, as `curl` or an older
// page's `fetch` call it (Playwright's request sends `Accept: */*`).
test("GET /error answers the original server's callers with the comment as plain text", async ({ request }) => {
  const plain = await request.get("/error?error=812.5&tentativas=13359.08,900,&_=1733000000000&t=x");
  expect(plain.status()).toBe(200);
  expect(plain.headers()["content-type"]).toBe("text/plain; charset=utf-8");
  expect(await plain.text()).toBe("Treinador de mentira na tentativa 3: boa jogada!");

  const viaParam = await request.get("/error?error=812.5&format=json");
  expect((await viaParam.json()).model).toBe("fakechat");

  const long = Array.from({ length: 150 }, (_, i) => 900 + i).join(",");
  const history = await request.get(`/error?error=812.5&tentativas=${long}`);
  expect(history.status()).toBe(200);
  // The fake counts the attempts it is told about: the latest 100, plus this one.
  expect(await history.text()).toBe("Treinador de mentira na tentativa 101: boa jogada!");

  const bad = await request.get("/error?error=abc");
  expect(bad.status()).toBe(400);
  expect(bad.headers()["content-type"]).toBe("text/plain; charset=utf-8");
  expect(await bad.text()).toMatch(/^error: must be a plain non-negative decimal number[^\n]*\n$/);
});

test("a caller that names no language gets JAY_DEFAULT_LANG (pt on this instance)", async ({ request }) => {
  // The model is asked in that language, and its answer in it is served.
  const said = await (await request.get("/error?error=812.5&format=json", { headers: { "accept-language": "" } })).json();
  expect(said).toMatchObject({ lang: "pt", model: "fakechat", comment: "Treinador de mentira na tentativa 1: boa jogada!" });
  const asked = await (await request.get("/error?error=812.5&format=json", { headers: { "accept-language": "zh-CN" } })).json();
  expect(asked).toMatchObject({ lang: "zh", model: "fakechat", comment: "第 1 次尝试：假教练说，走得好！" });
});
