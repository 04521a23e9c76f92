import { expect, test, type Page } from "@playwright/test";
import { START, error, grouped } from "./neuron";

// State in the URL: a link renders its point on the server, the address bar
// follows the attempts, an attempt can be restored, the visitor can start over
// and copy a link to the best attempt.

async function open(page: Page, path = "/") {
  await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

const query = (page: Page) => new URL(page.url()).searchParams;

test("a link's point is rendered by the server, before any WASM runs", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/?w=0.0585&b=247.3");
  await expect(page.getByTestId("error-value")).toHaveText(grouped(error(0.0585, 247.3)));
  await expect(page.getByTestId("score")).toHaveClass(/success/);
  await expect(page.locator("#weight-number")).toHaveValue("0.0585");
  await expect(page.locator("#bias-number")).toHaveValue("247.3");
  await expect(page.getByTestId("link-notice")).toHaveCount(0);
  // The compact page reads the same link.
  await page.goto("/embed?w=0.0585&b=247.3");
  await expect(page.getByTestId("error-value")).toHaveText(grouped(error(0.0585, 247.3)));
  await context.close();
});

test("a bad link is named on the page and the page still works", async ({ page }) => {
  const response = await page.goto("/?w=abc&b=9999");
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("link-notice")).toContainText("w=“abc” is not a number");
  await expect(page.getByTestId("link-notice")).toContainText("b=“9999” is outside the bias's range (0 to 460): using 460");
  await expect(page.getByTestId("error-value")).toHaveText(grouped(error(START.weight, 460)));
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
});

test("the address bar follows the attempts; an attempt can be restored; start over", async ({ page }) => {
  const comments: string[] = [];
  page.on("request", (r) => r.url().endsWith("/api/comment") && comments.push(r.url()));
  await open(page, "/?w=0.05&b=200");
  await expect(page.getByTestId("error-value")).toHaveText(grouped(error(0.05, 200)));

  await page.getByRole("button", { name: "Bias +1", exact: true }).click();
  await expect.poll(() => query(page).get("b")).toBe("201");
  expect(query(page).get("w")).toBe("0.05");
  await page.getByRole("button", { name: "Weight +0.001", exact: true }).click();
  await expect.poll(() => query(page).get("w")).toBe("0.051");
  await expect(page.getByTestId("attempt")).toHaveCount(2);

  // The link reproduces the view in a new page.
  const copy = await page.context().newPage();
  await copy.goto(page.url());
  await expect(copy.getByTestId("error-value")).toHaveText(grouped(error(0.051, 201)));
  await copy.close();

  // Pressing attempt #1 brings the model back to it, without a new attempt.
  await page.getByTestId("attempt").filter({ hasText: "#1" }).getByRole("button").click();
  await expect(page.locator("#weight-number")).toHaveValue("0.05");
  await expect(page.locator("#bias-number")).toHaveValue("201");
  await expect(page.getByTestId("error-value")).toHaveText(grouped(error(0.05, 201)));
  await expect.poll(() => query(page).get("w")).toBe("0.05");
  await expect(page.getByTestId("attempt")).toHaveCount(2);
  expect(comments.length).toBe(2);

  // Start over: the guide's start, the attempts kept, a clean address.
  await page.getByTestId("start-over").click();
  await expect(page.getByTestId("error-value")).toHaveText("799.09");
  await expect(page.getByTestId("attempt")).toHaveCount(2);
  await expect.poll(() => query(page).has("w")).toBe(false);
  expect(comments.length).toBe(2);
});

test("copy a link to my best: the clipboard gets the best attempt's address", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await open(page);
  await expect(page.getByTestId("copy-best")).toBeDisabled();
  await page.locator("#weight-number").fill("0.0585");
  await page.locator("#weight-number").press("Enter");
  await page.locator("#bias-number").fill("247.3");
  await page.locator("#bias-number").press("Enter");
  await page.getByRole("button", { name: "Bias +1", exact: true }).click();
  await expect(page.getByTestId("attempt")).toHaveCount(3);
  await page.getByTestId("copy-best").click();
  await expect(page.getByTestId("share-done")).toContainText("Link copied");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const url = new URL(copied);
  expect(url.origin).toBe(new URL(page.url()).origin);
  expect(url.searchParams.get("w")).toBe("0.0585");
  expect(url.searchParams.get("b")).toBe("247.3");
});
