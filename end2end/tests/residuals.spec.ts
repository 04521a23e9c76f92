import { expect, test, type Page } from "@playwright/test";
import { HOUSES, START, predict, signed, squaredErrors, yOf } from "./neuron";

// Residuals you can see (signed column, squares whose area is the squared
// error, a row picking its house) and the best line once the goal is reached.

async function open(page: Page) {
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

test("the table signs each residual, and hovering or focusing a row picks its house", async ({ page }) => {
  await open(page);
  const residuals = HOUSES.map((h) => h.price - predict(h.area, START.weight, START.bias));
  await expect(page.getByTestId("residual-value")).toHaveText(residuals.map(signed));
  // 399.9 − 360.4: the line passes under the first house.
  await expect(page.getByTestId("residual-value").first()).toHaveText("+39.50");

  const rows = page.getByTestId("house-row");
  await rows.nth(2).hover();
  await expect(rows.nth(2)).toHaveClass(/picked/);
  await expect(page.locator(".chart .house").nth(2)).toHaveClass(/picked/);
  await expect(page.getByTestId("residual").nth(2)).toHaveClass(/picked/);
  await expect(page.locator(".chart .house.picked")).toHaveCount(1);
  await page.mouse.move(0, 0);
  await expect(page.locator(".chart .house.picked")).toHaveCount(0);

  await rows.nth(0).focus();
  await expect(page.locator(".chart .house").nth(0)).toHaveClass(/picked/);
  await page.keyboard.press("Tab");
  await expect(page.locator(".chart .house").nth(1)).toHaveClass(/picked/);
  await expect(page.locator(".chart .house.picked")).toHaveCount(1);
});

test("squares on the residuals have the squared errors as their areas", async ({ page }) => {
  await open(page);
  await expect(page.getByTestId("residual-square")).toHaveCount(0);
  await page.getByTestId("squares-toggle").check();
  const squares = page.getByTestId("residual-square");
  await expect(squares).toHaveCount(3);
  // SVG units per $1000 of price: the same scale on both axes of a square.
  const scale = yOf(0) - yOf(1);
  const sides: number[] = [];
  for (let i = 0; i < 3; i++) {
    const w = Number(await squares.nth(i).getAttribute("width"));
    const h = Number(await squares.nth(i).getAttribute("height"));
    expect(w).toBe(h);
    sides.push(w);
  }
  const expected = squaredErrors(START.weight, START.bias);
  sides.forEach((side, i) => expect(side * side).toBeCloseTo(expected[i] * scale * scale, 0));
  // They follow the model.
  await page.getByRole("button", { name: "Bias +1", exact: true }).click();
  const moved = Number(await squares.nth(0).getAttribute("width"));
  expect(moved).toBeCloseTo(Math.abs(HOUSES[0].price - predict(HOUSES[0].area, START.weight, START.bias + 1)) * scale, 1);
  await page.getByTestId("squares-toggle").uncheck();
  await expect(squares).toHaveCount(0);
});

test("after the goal, the best possible line is drawn faintly", async ({ page }) => {
  await open(page);
  await expect(page.getByTestId("best-fit-line")).toHaveCount(0);
  await page.locator("#weight-number").fill("0.0585");
  await page.locator("#weight-number").press("Enter");
  await expect(page.getByTestId("best-fit-line")).toHaveCount(0);
  await page.locator("#bias-number").fill("247.3");
  await page.locator("#bias-number").press("Enter");
  await expect(page.getByTestId("best-fit-line")).toHaveCount(1);
  await expect(page.locator(".legend-best")).toHaveText("┄ the best possible line (error 447.29)");
  // It stays once reached, wherever the model goes next.
  await page.locator("#bias-number").fill("100");
  await page.locator("#bias-number").press("Enter");
  await expect(page.getByTestId("best-fit-line")).toHaveCount(1);
});
