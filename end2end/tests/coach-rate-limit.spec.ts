import { expect, test } from "@playwright/test";

// Against the third app instance (port 3004): the default burst of 5 comments,
// one more a minute (so none comes back during the test), and a model that
// takes 2 s to answer, so a quick key press finds the previous comment still
// under way. This is that instance's only test: the allowance is all its own.
test.use({ baseURL: "http://127.0.0.1:3004" });

const isComment = (url: string) => url.endsWith("/api/comment");

test("quick key presses cancel the superseded comments, which cost no allowance", async ({ page }) => {
  const failures: string[] = [];
  page.on("requestfailed", (r) => {
    if (isComment(r.url())) failures.push(r.failure()?.errorText ?? "");
  });
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.locator("#bias").focus();

  // Five quick presses, each one's request sent before the next press.
  for (let i = 0; i < 5; i++) {
    await Promise.all([
      page.waitForRequest((r) => isComment(r.url())),
      page.keyboard.press("ArrowRight"),
    ]);
  }
  await expect(page.getByTestId("coach-text")).toHaveText("Fake coach on attempt 5: nice move!");
  await expect(page.getByTestId("coach-model")).toHaveText("slowchat · chat");
  // The four superseded requests were aborted by the browser.
  await expect.poll(() => failures.length).toBe(4);
  expect(failures).toEqual(Array(4).fill("net::ERR_ABORTED"));

  // After a pause, one more attempt: had the five been charged, the burst
  // would be spent and the offline commentator would say the models rest.
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("coach-text")).toHaveText("Fake coach on attempt 6: nice move!");
  await expect(page.getByTestId("coach-model")).toHaveText("slowchat · chat");
});
