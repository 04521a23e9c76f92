import { expect, test, type Page } from "@playwright/test";
import { violations } from "./axe";

// The page in each of its languages: chosen by ?lang=, else the browser's
// Accept-Language, else English; numbers written the local way; a switcher
// that keeps the view; the coach answering in the page's language; axe clean
// in each; a phone-sized screenshot of each in the report.

const PAGES = [
  {
    code: "en",
    tag: "en",
    heading: "Train a neuron by hand",
    start: "799.09",
    bias: "Bias",
    ladder: "447.29 (the floor: no line does better)",
    residual: "+39.50",
    after: "774.49",
  },
  {
    code: "pt",
    tag: "pt-BR",
    heading: "Treine um neurônio à mão",
    start: "799,09",
    bias: "Viés",
    ladder: "447,29 (o piso: nenhuma reta consegue menos)",
    residual: "+39,50",
    after: "774,49",
  },
  {
    code: "zh",
    tag: "zh-CN",
    heading: "亲手训练一个神经元",
    start: "799.09",
    bias: "偏置",
    ladder: "447.29（底线：没有哪条直线能更低）",
    residual: "+39.50",
    after: "774.49",
  },
] as const;

const HAN = /\p{Script=Han}/u;

async function hydrated(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

for (const p of PAGES) {
  test(`the page in ${p.tag}: words, numbers, the coach's language, axe; screenshot`, async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`/?lang=${p.code}`);
    // Server-rendered in the language, before the WASM takes over.
    await expect(page.locator("html")).toHaveAttribute("lang", p.tag);
    await expect(page.locator("h1")).toHaveText(p.heading);
    await expect(page.getByTestId("error-value")).toHaveText(p.start);
    await expect(page.getByTestId("rung").last()).toContainText(p.ladder);
    await expect(page.getByTestId("residual-value").first()).toHaveText(p.residual);
    await hydrated(page);
    await expect(page.locator("label[for=bias] .param-name")).toHaveText(p.bias);
    await expect(page.getByTestId(`lang-${p.code}`)).toHaveAttribute("aria-current", "true");
    // An attempt: the browser writes the numbers the same way, and the coach
    // answers in the page's language.
    await page.getByRole("button", { name: `${p.bias} +1`, exact: true }).click();
    await expect(page.getByTestId("error-value")).toHaveText(p.after);
    await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");
    await expect(page.getByTestId("coach-text")).toHaveAttribute("lang", p.tag);
    const comment = (await page.getByTestId("coach-text").textContent()) ?? "";
    expect(comment.length).toBeGreaterThan(0);
    expect(HAN.test(comment), comment).toBe(p.code === "zh");

    expect(await violations(page)).toEqual([]);

    await page.evaluate(() => window.scrollTo(0, 0));
    const shot = test.info().outputPath(`${p.code}-360x740.png`);
    await page.screenshot({ path: shot, fullPage: true });
    await test.info().attach(`${p.tag} screenshot`, { path: shot, contentType: "image/png" });
  });
}

test("without ?lang= the browser's language decides; English otherwise", async ({ browser }) => {
  for (const [locale, tag, heading] of [
    ["pt-BR", "pt-BR", "Treine um neurônio à mão"],
    ["zh-CN", "zh-CN", "亲手训练一个神经元"],
    ["de-DE", "en", "Train a neuron by hand"],
  ] as const) {
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", tag);
    await expect(page.locator("h1")).toHaveText(heading);
    await hydrated(page);
    await context.close();
  }
});

test("the switcher keeps the point and the layout, and the address bar keeps the language", async ({ page }) => {
  await page.goto("/embed?w=0.0585&b=247.3");
  await hydrated(page);
  await page.getByTestId("lang-pt").click();
  await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
  const url = new URL(page.url());
  expect(url.pathname).toBe("/embed");
  expect(url.searchParams.get("w")).toBe("0.0585");
  expect(url.searchParams.get("b")).toBe("247.3");
  await expect(page.getByTestId("error-value")).toHaveText("447,29");
  await hydrated(page);
  // The embed's link to the full page keeps the language.
  await expect(page.locator(".embed-intro a[target=_blank]")).toHaveAttribute("href", "/?lang=pt");
  // An attempt rewrites w and b, and keeps lang.
  await page.getByRole("button", { name: "Viés +1", exact: true }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get("b")).toBe("248.3");
  expect(new URL(page.url()).searchParams.get("lang")).toBe("pt");
});

test("a Portuguese page writes its number boxes with a comma and reads a comma or a point", async ({ page }) => {
  await page.goto("/?lang=pt");
  await expect(page.locator("#weight-number")).toHaveValue("0,1");
  await hydrated(page);
  await expect(page.locator("#bias-number")).toHaveValue("150");
  await page.locator("#weight-number").fill("0,0585");
  await page.locator("#weight-number").press("Enter");
  await expect(page.locator("#weight-number")).toHaveValue("0,0585");
  await page.locator("#bias-number").fill("247.3");
  await page.locator("#bias-number").press("Enter");
  await expect(page.locator("#bias-number")).toHaveValue("247,3");
  await expect(page.getByTestId("error-value")).toHaveText("447,29");
  // Text that is no number leaves the box at its value.
  await page.locator("#bias-number").fill("abc");
  await page.locator("#bias-number").press("Enter");
  await expect(page.locator("#bias-number")).toHaveValue("247,3");
  // Up and Down step it like the slider.
  await page.locator("#bias-number").press("ArrowUp");
  await expect(page.locator("#bias-number")).toHaveValue("247,4");
});

test("the 404 page speaks the visitor's language", async ({ page }) => {
  const response = await page.goto("/nowhere?lang=zh");
  expect(response?.status()).toBe(404);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page.locator("h1")).toHaveText("找不到页面");
});

// Portuguese words run longer and Chinese ones wrap differently: the embed and
// the desktop page must still fit their width, in each language.
for (const p of PAGES.filter((p) => p.code !== "en")) {
  for (const [name, size, path] of [
    ["iframe", { width: 800, height: 600 }, "/embed"],
    ["desktop", { width: 1280, height: 800 }, "/"],
  ] as const) {
    test(`${name} (${size.width}×${size.height}) in ${p.tag}: no sideways scrolling; screenshot`, async ({ page }) => {
      await page.setViewportSize(size);
      await page.goto(`${path}?lang=${p.code}`);
      await hydrated(page);
      await page.getByTestId("best-bias").click();
      await expect(page.getByTestId("coach-bubble")).toHaveAttribute("data-state", "said");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBe(0);
      await page.evaluate(() => window.scrollTo(0, 0));
      const shot = test.info().outputPath(`${p.code}-${name}-${size.width}x${size.height}.png`);
      await page.screenshot({ path: shot, fullPage: name !== "desktop" });
      await test.info().attach(`${p.tag} ${name} screenshot`, { path: shot, contentType: "image/png" });
    });
  }
}
