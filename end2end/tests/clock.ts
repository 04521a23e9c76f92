import type { Page } from "@playwright/test";

/** How long both lessons wait after the last key press of a burst before they
 *  record it as one attempt (`SETTLE` in src/page/model.rs, `SETTLE_MS` in
 *  crates/page-two/src/lib.rs). */
export const SETTLE_MS = 600;

/** Stops the page's clock, which `page.clock.install()` put in before the page
 *  loaded: from here its timers fire only as the test moves time on
 *  (`page.clock.runFor`), so presses are a burst however slowly a busy
 *  machine delivers them. */
export async function stopTheClock(page: Page) {
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
}
