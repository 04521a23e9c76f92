import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium.mjs";

// Every test's browser is the same client to the servers (127.0.0.1), so the
// per-client allowances are set high enough that no test can use them up (.ci/test
// does the same for the app on :3000, and clears every JAY_* variable the shell
// has set before the servers start); the rate-limit test has a server of its
// own, with the default burst. Each server gets its own data directory, fresh
// per run when .ci/test gives a JAY_E2E_DATA_DIR, and trusts no proxy.
const hermetic = (name: string) => ({
  LEPTOS_SITE_ROOT: "target/site",
  HF_TOKEN: "",
  JAY_DATA_DIR: `${process.env.JAY_E2E_DATA_DIR ?? "target/e2e-data"}/${name}`,
  JAY_TRUSTED_PROXY_HOPS: "0",
  // Every test's page load is a new visit from 127.0.0.1.
  JAY_VISITS_PER_HOUR: "1000000",
  // And every vote one of 127.0.0.1's.
  JAY_VOTES_PER_DAY: "100000",
  // And every model call (by default 50 a day, 20 of them a client's), so no
  // test finds the day's calls spent by the tests before it.
  JAY_UPSTREAM_DAILY_BUDGET: "100000000",
  JAY_UPSTREAM_DAILY_PER_CLIENT: "100000000",
});

// Playwright never downloads a browser here: it drives Debian's Chromium with
// the flags in chromium.mjs (shared with the benchmarks).
export default defineConfig({
  testDir: "./tests",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 2,
  // The list as the tests run, and a JSON report that .ci/e2e-failures reads
  // to name the failed tests again at the very end of a CI log (after
  // cargo-leptos's own output, which would otherwise bury them).
  reporter: [["list"], ["json", { outputFile: "../target/e2e-report.json" }]],
  use: {
    baseURL: process.env.BASE_URL ?? "http://127.0.0.1:3000",
    trace: "retain-on-failure",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  // `cargo leptos end-to-end --release` starts the app on :3000 (repository
  // registry, no token: the offline commentator answers). For the tests of the
  // coach with a model, a fake upstream and two more instances of the same
  // release binary, pointed at it by end2end/fake-models.toml (:3002) and
  // end2end/slow-models.toml (:3004, the rate-limit test's), start here.
  webServer: [
    {
      command: "node fake-upstream.mjs",
      url: "http://127.0.0.1:3190/health",
      reuseExistingServer: false,
    },
    {
      command: "target/release/jay-trainer",
      cwd: "..",
      url: "http://127.0.0.1:3002/healthz",
      reuseExistingServer: false,
      env: {
        ...hermetic("3002"),
        LEPTOS_SITE_ADDR: "127.0.0.1:3002",
        JAY_MODELS: "end2end/fake-models.toml",
        JAY_RATE_BURST: "10000",
        // The Space's suggestion for the original server's audience: callers that name
        // no language get Portuguese (coach-fake-model.spec.ts checks it).
        JAY_DEFAULT_LANG: "pt",
      },
    },
    {
      command: "target/release/jay-trainer",
      cwd: "..",
      url: "http://127.0.0.1:3004/healthz",
      reuseExistingServer: false,
      env: {
        ...hermetic("3004"),
        LEPTOS_SITE_ADDR: "127.0.0.1:3004",
        JAY_MODELS: "end2end/slow-models.toml",
        // The default burst; one comment back a minute, so none comes back
        // while the test runs.
        JAY_RATE_BURST: "5",
        JAY_RATE_PER_MIN: "1",
      },
    },
  ],
});
