import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

// The descent lab explains itself, in each language: it says where it starts
// (Jay's start), at the default rate Play stops at a stall and says why, with
// standardised areas it reaches the goal in the steps the lesson promises, and
// its role=status line changes only with the state (the step counter beside it
// changes every step, unannounced).

const LANGS = [
  {
    code: "en",
    start: "Starts from Jay's start: w 0.1, b 150.",
    ready: "Ready: “Step” takes one step downhill; “Play” keeps stepping.",
    playing: "Playing: it stops by itself at the goal or if it stalls.",
    stalled: /^Stalled at step 18: .*Tick “Standardise the area”/,
    goal: /^Goal reached at step 11: /,
    step: (n: number) => new RegExp(`^Lab: step ${n}, error `),
    lesson: /goal in 11 steps from Jay's start/,
    play: "Play",
  },
  {
    code: "pt",
    start: "Começa no início do Jay: p 0,1, v 150.",
    ready: "Pronto: “Passo” dá um passo morro abaixo; “Rodar” segue dando passos.",
    playing: "Rodando: para sozinho ao atingir a meta ou se empacar.",
    stalled: /^Empacou no passo 18: .*Marque “Padronizar a área”/,
    goal: /^Meta atingida no passo 11: /,
    step: (n: number) => new RegExp(`^Laboratório: passo ${n}, erro `),
    lesson: /meta em 11 passos, saindo do ponto de partida do Jay/,
    play: "Rodar",
  },
  {
    code: "zh",
    start: "从 Jay 的起点出发：w 0.1，b 150。",
    ready: "准备就绪：“单步”往下走一步；“播放”会一直走下去。",
    playing: "正在播放：到达目标或停滞时会自动停下。",
    stalled: /^在第 18 步停滞：.*勾选“标准化面积”/,
    goal: /^第 11 步达到目标：/,
    step: (n: number) => new RegExp(`^实验：第 ${n} 步，误差 `),
    lesson: /出发，11 步就能达到目标/,
    play: "播放",
  },
] as const;

async function open(page: Page, lang: string) {
  await page.goto(`/?lang=${lang}`);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

// Records every change of the text the lab's status region shows, from now on.
async function listen(page: Page) {
  await page.getByTestId("gd-status").evaluate((el) => {
    const said: string[] = [el.textContent ?? ""];
    (window as unknown as { said: string[] }).said = said;
    new MutationObserver(() => {
      const text = el.textContent ?? "";
      if (said[said.length - 1] !== text) said.push(text);
    }).observe(el, { childList: true, subtree: true, characterData: true });
  });
}

async function heard(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { said: string[] }).said.slice(1));
}

for (const l of LANGS) {
  test(`${l.code}: at the default rate Play stops at a stall and says why, announced once`, async ({ page }) => {
    await open(page, l.code);
    const status = page.getByTestId("gd-status");
    await expect(status).toHaveAttribute("role", "status");
    await expect(page.getByTestId("gd-start")).toHaveText(l.start);
    await expect(status).toHaveText(l.ready);
    await expect(page.getByTestId("gd-progress")).toHaveText(l.step(0));
    await listen(page);
    await page.getByTestId("gd-play").click();
    await expect(status).toHaveText(l.stalled);
    await expect(page.getByTestId("gd-play")).toHaveText(l.play);
    await expect(page.getByTestId("gd-progress")).toHaveText(l.step(18));
    // Eighteen steps, two announcements: playing, then stalled.
    const said = await heard(page);
    expect(said).toHaveLength(2);
    expect(said[0]).toBe(l.playing);
    expect(said[1]).toMatch(l.stalled);
    // Play again does not run on along the plateau; Step still steps, unannounced.
    await page.getByTestId("gd-play").click();
    await page.getByTestId("gd-step").click();
    await expect(page.getByTestId("gd-progress")).toHaveText(l.step(19));
    await expect(status).toHaveText(l.stalled);
    expect(await heard(page)).toHaveLength(2);
    expect(await new AxeBuilder({ page }).include("[data-testid=descent-lab]").analyze().then((r) => r.violations)).toEqual([]);
  });

  test(`${l.code}: standardised, from Jay's start, the goal in the promised 11 steps`, async ({ page }) => {
    await open(page, l.code);
    await expect(page.getByTestId("descent-lesson")).toContainText(l.lesson);
    // Whatever the model does, the lab starts where it says.
    await page.getByTestId("best-bias").click();
    await page.getByTestId("gd-standardise").check();
    await expect(page.getByTestId("gd-start")).toHaveText(l.start);
    await expect(page.getByTestId("gd-rate-value")).toHaveText(l.code === "pt" ? "0,1" : "0.1");
    await listen(page);
    // Step by step (the Step button): ten steps, still on the way, nothing announced.
    for (let i = 1; i <= 10; i++) {
      await page.getByTestId("gd-step").click();
      await expect(page.getByTestId("gd-progress")).toHaveText(l.step(i));
    }
    await expect(page.getByTestId("gd-status")).toHaveText(l.ready);
    expect(await heard(page)).toEqual([]);
    await page.getByTestId("gd-step").click();
    await expect(page.getByTestId("gd-status")).toHaveText(l.goal);
    await expect(page.getByTestId("gd-progress")).toHaveText(l.step(11));
    expect(await heard(page)).toHaveLength(1);
    // Reset and Play: the same eleven steps.
    await page.getByTestId("gd-reset").click();
    await expect(page.getByTestId("gd-progress")).toHaveText(l.step(0));
    await page.getByTestId("gd-play").click();
    await expect(page.getByTestId("gd-status")).toHaveText(l.goal);
    await expect(page.getByTestId("gd-progress")).toHaveText(l.step(11));
  });
}

test("the lab can start from the model's point and back, and Pause says where it paused", async ({ page }) => {
  await open(page, "en");
  await page.locator("#weight-number").fill("0.06");
  await page.locator("#weight-number").press("Enter");
  await expect(page.getByTestId("attempt")).toHaveCount(1);
  const toggle = page.getByTestId("gd-start-toggle");
  await expect(toggle).toHaveText("Start from my model's point");
  await toggle.click();
  await expect(page.getByTestId("gd-start")).toHaveText("Starts from your model's point: w 0.06, b 150.");
  await expect(page.getByTestId("gd-progress")).toHaveText("Lab: step 0, error 9,318.67");
  await expect(toggle).toHaveText("Start from Jay's start");
  await toggle.click();
  await expect(page.getByTestId("gd-start")).toHaveText("Starts from Jay's start: w 0.1, b 150.");
  await expect(page.getByTestId("gd-progress")).toHaveText("Lab: step 0, error 799.09");
  // The model's error and the lab's are named apart.
  await expect(page.getByTestId("score")).toContainText("Your model's error");
  await page.getByTestId("gd-play").click();
  await page.getByTestId("gd-play").click();
  await expect(page.getByTestId("gd-status")).toHaveText(/^Paused at step \d+\.$/);
  await expect(page.getByTestId("gd-play")).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByTestId("gd-apply")).toHaveText("Move my model to the lab's point");
});
