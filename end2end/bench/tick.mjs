// How long one tick of a weight-slider drag takes to update every view, in the
// browser (budget: p95 ≤ 8 ms). A benchmark, not a test: run by
// `.ci/budgets`, or alone from the repository's root after a release build:
//
//   node end2end/bench/tick.mjs            # TICKS=500 WARM_UP=50 by default
//
// It starts the release binary (target/release/jay-trainer) on a free loopback
// port with no token, the repository's registry and a throw-away data folder,
// opens `/` in Chromium at 1280×800 (the landscape is on the page), waits for
// hydration (`html[data-hydrated=true]`), then, inside the page:
//
//   t0 = performance.now()
//   set #weight's value, dispatch one bubbling `input` event (what the browser
//   sends for each tick of a drag; never `change`, which would record an
//   attempt and ask the coach)
//   wait, one MessageChannel macrotask at a time (so every microtask Leptos
//   queued, its effects included, has run), until every view shows the new
//   weight: the error (score), the chart's prediction line, the landscape's
//   marker, the table's first prediction and the guide's question
//   t1 = performance.now()
//
// (Measured here: the views are never all updated when dispatchEvent returns,
// and always after the first macrotask: Leptos runs its effects in microtasks.)
// So a tick covers the event's dispatch, the WASM handler, the reactive
// updates and every DOM write they make; it does not cover style, layout or
// paint (nothing in the interval reads layout, so the browser does them after
// t1). Between ticks the page gets one animation frame, as in a real drag. The
// weights alternate between the lower and the upper part of the slider's range
// (never closer than 0.04 apart), so each view changes on every tick. Chromium
// rounds performance.now() to 0.1 ms (0.005 ms when cross-origin isolated).
//
// Prints a summary on stderr and `tick_p50_ms 1.2`-style lines on stdout (read
// by .ci/budgets); exits 1 when the p95 misses the budget.

import { withServerAndBrowser } from "./harness.mjs";

const TICKS = Number(process.env.TICKS ?? 500);
const WARM_UP = Number(process.env.WARM_UP ?? 50);
const TARGET_P95_MS = 8;

/** Nearest-rank quantile of sorted numbers. */
const quantile = (sorted, q) =>
  sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1];

const ticks = await withServerAndBrowser({ name: "tick", binary: "target/release/jay-trainer", site: "target/site" }, async (base, browser) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // A panic in the WASM (a failed hydration, say) leaves a page that never
  // updates: name it instead of timing out on the first tick.
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("console", (m) => m.type() === "error" && pageErrors.push(m.text().split("\n")[0]));
  await page.goto(`${base}/`);
  await page.waitForSelector("html[data-hydrated=true]", { state: "attached", timeout: 20_000 });
  // A hydration panic can come after the flag is set: give it a moment.
  await page.waitForTimeout(200);
  if (pageErrors.length > 0) {
    throw new Error(`the page failed in the browser: ${pageErrors.join(" | ")}`);
  }

  return await page.evaluate(
    async ({ total, warmUp }) => {
      const slider = document.querySelector("#weight");
      const q = (id) => document.querySelector(`[data-testid=${id}]`);
      const views = {
        score: () => q("error-value").textContent,
        chart: () => {
          const line = q("prediction-line");
          return `${line.getAttribute("y1")} ${line.getAttribute("y2")}`;
        },
        landscape: () => q("landscape-marker").getAttribute("transform"),
        table: () => q("prediction").textContent,
        question: () => q("question-answer").textContent,
      };
      const snapshot = () => Object.fromEntries(Object.entries(views).map(([k, f]) => [k, f()]));
      const macrotask = () =>
        new Promise((r) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => r();
          channel.port2.postMessage(null);
        });
      const frame = () => new Promise((r) => requestAnimationFrame(() => r()));

      const times = [];
      let before = snapshot();
      for (let i = 0; i < warmUp + total; i++) {
        // Lower part [0.02, 0.13] on even ticks, upper part [0.17, 0.28] on odd.
        const f = i / (warmUp + total);
        const w = i % 2 === 0 ? 0.02 + 0.11 * f : 0.28 - 0.11 * f;
        const value = w.toFixed(4);

        const t0 = performance.now();
        slider.value = value;
        slider.dispatchEvent(new Event("input", { bubbles: true }));
        let after = snapshot();
        let polls = 0;
        while (Object.keys(views).some((k) => after[k] === before[k])) {
          if (++polls > 1000) {
            const stale = Object.keys(views).filter((k) => after[k] === before[k]);
            throw new Error(`weight ${value}: ${stale.join(", ")} did not update`);
          }
          await macrotask();
          after = snapshot();
        }
        const t1 = performance.now();

        if (i >= warmUp) times.push(t1 - t0);
        before = after;
        await frame();
      }
      // No `change` was sent, so no attempt may have been recorded.
      const attempts = q("attempts-summary").getAttribute("data-count");
      if (attempts !== "0") throw new Error(`${attempts} attempts were recorded`);
      return times;
    },
    { total: TICKS, warmUp: WARM_UP },
  );
});

const sorted = [...ticks].sort((a, b) => a - b);
const p50 = quantile(sorted, 0.5);
const p95 = quantile(sorted, 0.95);
const max = sorted[sorted.length - 1];
console.error(
  `drag tick (input → every view updated): ${TICKS} ticks after ${WARM_UP} to warm up: ` +
    `p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, max ${max.toFixed(2)} ms (target p95 ≤ ${TARGET_P95_MS} ms)`,
);
console.log(`tick_p50_ms ${p50.toFixed(2)}`);
console.log(`tick_p95_ms ${p95.toFixed(2)}`);
console.log(`tick_max_ms ${max.toFixed(2)}`);
if (p95 > TARGET_P95_MS) {
  console.error(`missed: drag tick p95 ${p95.toFixed(2)} ms > ${TARGET_P95_MS} ms`);
  process.exit(1);
}
