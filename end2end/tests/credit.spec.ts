import { expect, test } from "@playwright/test";
import { violations } from "./axe";

// Every page names Jay Alammar's guide, and its part 2, with links to both,
// in the page's language: the simulator, the embed, lesson 2 and its embed, /insights.

const GUIDE = "https://jalammar.github.io/visual-interactive-guide-basics-neural-networks/";
const PART_2 = "https://jalammar.github.io/feedforward-neural-networks-visual-interactive/";

for (const lang of ["en", "pt", "zh"]) {
  for (const path of ["/", "/embed", "/two", "/two/embed", "/insights"]) {
    test(`${path} credits Jay's guide and its part 2 (${lang})`, async ({ page }) => {
      await page.goto(`${path}?lang=${lang}`);
      const credit = page.getByTestId("credit");
      await expect(credit).toBeVisible();
      await expect(credit).toContainText("Jay Alammar");
      await expect(credit.locator(`a[href="${GUIDE}"]`)).toHaveText(
        "A Visual and Interactive Guide to the Basics of Neural Networks",
      );
      await expect(credit.locator(`a[href="${PART_2}"]`)).toHaveText(
        "A Visual And Interactive Look at Basic Neural Network Math",
      );
      // Opened beside the page: never inside a blog's frame.
      await expect(credit.locator("a")).toHaveCount(2);
      for (const a of await credit.locator("a").all()) {
        await expect(a).toHaveAttribute("target", "_blank");
      }
      if (path !== "/insights") {
        await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
        await expect(credit).toBeVisible();
      }
      expect(await violations(page, '[data-testid="credit"]')).toEqual([]);
    });
  }
}
