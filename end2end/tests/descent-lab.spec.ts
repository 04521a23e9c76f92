import { expect, test, type Page } from "@playwright/test";
import { violations } from "./axe";

// The descent lab explains itself, in each language: it says where it starts
// (Jay's start), at the default rate Play stops at a stall and says why, with
// standardised areas it reaches the goal in the steps the lesson promises, and
// its role=status line changes only with the state (the step counter beside it
// changes every step, unannounced). Jay's own buttons, 1, 10 and
// 100 steps, from w 0, b 0 with his two rates, land where his page lands (the
// numbers are pinned in crates/lesson/src/descent/jays_rates.rs).

const LANGS = [
  {
    code: "en",
    start: "Starts from Jay's start: w 0.1, b 150.",
    ready: "Ready: “1 step”, “10 steps” and “100 steps” walk downhill; “Play” keeps stepping.",
    playing: "Playing: it stops by itself at the goal or if it stalls.",
    stalled: /^Stalled at step 18: .*Choose “Standardise the area”/,
    goal: /^Goal reached at step 11: /,
    step: (n: number) => new RegExp(`^Lab: step ${n}, w `),
    lesson: /goal in 11 steps from Jay's start/,
    play: "Play",
  },
  {
    code: "pt",
    start: "Começa no início do Jay: p 0,1, v 150.",
    ready: "Pronto: “1 passo”, “10 passos” e “100 passos” descem o morro; “Rodar” segue dando passos.",
    playing: "Rodando: para sozinho ao atingir a meta ou se empacar.",
    stalled: /^Empacou no passo 18: .*Escolha “Padronizar a área”/,
    goal: /^Meta atingida no passo 11: /,
    step: (n: number) => new RegExp(`^Laboratório: passo ${n}, p `),
    lesson: /meta em 11 passos, saindo do ponto de partida do Jay/,
    play: "Rodar",
  },
  {
    code: "zh",
    start: "从 Jay 的起点出发：w 0.1，b 150。",
    ready: "准备就绪：“走 1 步”“走 10 步”“走 100 步”都往山下走；“播放”会一直走下去。",
    playing: "正在播放：到达目标或停滞时会自动停下。",
    stalled: /^在第 18 步停滞：.*选择“标准化面积”/,
    goal: /^第 11 步达到目标：/,
    step: (n: number) => new RegExp(`^实验：第 ${n} 步，w `),
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
    expect(await violations(page, "[data-testid=descent-lab]")).toEqual([]);
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
  await expect(page.getByTestId("gd-jays")).toBeChecked();
  await page.getByRole("radio", { name: "Your model's point" }).check();
  await expect(page.getByTestId("gd-start")).toHaveText("Starts from your model's point: w 0.06, b 150.");
  await expect(page.getByTestId("gd-progress")).toHaveText("Lab: step 0, w 0.06, b 150, error 9,318.67");
  // Reset reads the model's point again.
  await page.locator("#bias-number").fill("200");
  await page.locator("#bias-number").press("Enter");
  await expect(page.getByTestId("attempt")).toHaveCount(2);
  await page.getByTestId("gd-reset").click();
  await expect(page.getByTestId("gd-start")).toHaveText("Starts from your model's point: w 0.06, b 200.");
  await page.getByRole("radio", { name: "Jay's start: w 0.1, b 150" }).check();
  await expect(page.getByTestId("gd-start")).toHaveText("Starts from Jay's start: w 0.1, b 150.");
  await expect(page.getByTestId("gd-progress")).toHaveText("Lab: step 0, w 0.1, b 150, error 799.09");
  // The model's error and the lab's are named apart.
  await expect(page.getByTestId("score")).toContainText("Your model's error");
  await page.getByTestId("gd-play").click();
  await page.getByTestId("gd-play").click();
  await expect(page.getByTestId("gd-status")).toHaveText(/^Paused at step \d+\.$/);
  await expect(page.getByTestId("gd-play")).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByTestId("gd-apply")).toHaveText("Move my model to the lab's point");
});

// Jay's gradient descent, as his page runs it: from w 0, b 0, his rates 1e-8
// (weight) and 1 (bias) on the half-MSE gradient. The lab's counter shows the
// step, the point and the error after 1, 10 and 100 steps (each from a reset).
const JAY = [
  {
    code: "en",
    buttons: ["1 step", "10 steps", "100 steps"],
    origin: "w 0, b 0, where Jay's gradient descent starts",
    preset: "Jay's rates: 1e-8 for the weight, 1 for the bias",
    start: "Starts from w 0, b 0, as Jay's gradient descent does.",
    at: {
      0: "Lab: step 0, w 0, b 0, error 134,971.67",
      1: "Lab: step 1, w 0.0075, b 366.27, error 964.54",
      10: "Lab: step 10, w 0.0077, b 350.71, error 728.64",
      100: "Lab: step 100, w 0.0123, b 341.4, error 680.27",
    },
    why: /bends 4,248,939 times more sharply along the weight/,
  },
  {
    code: "pt",
    buttons: ["1 passo", "10 passos", "100 passos"],
    origin: "p 0, v 0, onde começa o gradiente descendente do Jay",
    preset: "As taxas do Jay: 1e-8 para o peso, 1 para o viés",
    start: "Começa em p 0, v 0, como o gradiente descendente do Jay.",
    at: {
      0: "Laboratório: passo 0, p 0, v 0, erro 134.971,67",
      1: "Laboratório: passo 1, p 0,0075, v 366,27, erro 964,54",
      10: "Laboratório: passo 10, p 0,0077, v 350,71, erro 728,64",
      100: "Laboratório: passo 100, p 0,0123, v 341,4, erro 680,27",
    },
    why: /o erro se curva 4\.248\.939 vezes mais no peso/,
  },
  {
    code: "zh",
    buttons: ["走 1 步", "走 10 步", "走 100 步"],
    origin: "w 0，b 0（Jay 的梯度下降从这里出发）",
    preset: "Jay 的学习率：权重用 1e-8，偏置用 1",
    start: "从 w 0，b 0 出发，和 Jay 的梯度下降一样。",
    at: {
      0: "实验：第 0 步，w 0，b 0，误差 134,971.67",
      1: "实验：第 1 步，w 0.0075，b 366.27，误差 964.54",
      10: "实验：第 10 步，w 0.0077，b 350.71，误差 728.64",
      100: "实验：第 100 步，w 0.0123，b 341.4，误差 680.27",
    },
    why: /误差沿权重方向弯得比沿偏置方向急 4,248,939 倍/,
  },
] as const;

for (const j of JAY) {
  test(`${j.code}: Jay's 1, 10 and 100 steps from w 0, b 0 with his rates land where his page does`, async ({ page }) => {
    await open(page, j.code);
    const progress = page.getByTestId("gd-progress");
    await page.getByRole("radio", { name: j.origin }).check();
    await expect(page.getByTestId("gd-start")).toHaveText(j.start);
    await expect(progress).toHaveText(j.at[0]);
    const preset = page.getByRole("radio", { name: j.preset });
    await expect(preset).toHaveAccessibleDescription(j.why);
    // The one-rate slider has no say under Jay's two rates.
    await expect(page.locator("#gd-rate")).toBeVisible();
    await preset.check();
    await expect(page.locator("#gd-rate")).toBeHidden();
    await expect(progress).toHaveText(j.at[0]);
    const [one, ten, hundred] = j.buttons.map((name) => page.getByRole("button", { name, exact: true }));
    await one.click();
    await expect(progress).toHaveText(j.at[1]);
    await page.getByTestId("gd-reset").click();
    await expect(progress).toHaveText(j.at[0]);
    await ten.click();
    await expect(progress).toHaveText(j.at[10]);
    await page.getByTestId("gd-reset").click();
    await hundred.click();
    await expect(progress).toHaveText(j.at[100]);
    // Like Jay's page, the point can go to the sliders (one attempt).
    await page.getByTestId("gd-apply").click();
    await expect(page.getByTestId("attempt")).toHaveCount(1);
    await expect(page.locator("#weight-number")).toHaveAttribute("aria-valuenow", "0.0123");
    await expect(page.locator("#bias-number")).toHaveAttribute("aria-valuenow", "341.4");
    expect(await violations(page, "[data-testid=descent-lab]")).toEqual([]);
  });
}

test("Start over keeps the lab's start at w 0, b 0 and its preset", async ({ page }) => {
  await open(page, "en");
  await page.getByTestId("gd-origin").check();
  await page.getByTestId("gd-jay-rates").check();
  await page.getByTestId("gd-step100").click();
  await expect(page.getByTestId("gd-progress")).toHaveText("Lab: step 100, w 0.0123, b 341.4, error 680.27");
  await page.getByTestId("start-over").click();
  await expect(page.getByTestId("gd-progress")).toHaveText("Lab: step 0, w 0, b 0, error 134,971.67");
  await expect(page.getByTestId("gd-origin")).toBeChecked();
  await expect(page.getByTestId("gd-jay-rates")).toBeChecked();
  await page.getByTestId("gd-step").click();
  await expect(page.getByTestId("gd-progress")).toHaveText("Lab: step 1, w 0.0075, b 366.27, error 964.54");
  // Back to one rate on raw areas: the slider is back, at its default.
  await page.getByTestId("gd-raw").check();
  await expect(page.getByTestId("gd-rate-value")).toHaveText("2e-7");
  await expect(page.getByTestId("gd-progress")).toHaveText("Lab: step 0, w 0, b 0, error 134,971.67");
});
