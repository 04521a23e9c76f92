import { defineConfig } from "@playwright/test";

// Playwright never downloads a browser here: it drives Debian's Chromium, which
// .ci/setup installs. The background-networking flags stop Chromium from calling
// home (these machines have no network, and such calls only slow it down).
export default defineConfig({
  testDir: "./tests",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 2,
  reporter: "list",
  use: {
    baseURL: process.env.BASE_URL ?? "http://127.0.0.1:3000",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  // `cargo leptos end-to-end --release` starts the app on :3000 (repository
  // registry, no token: the offline commentator answers). For the tests of the
  // coach with a model, a fake upstream and a second instance of the same release
  // binary, pointed at it by end2end/fake-models.toml, start here.
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
        LEPTOS_SITE_ADDR: "127.0.0.1:3002",
        LEPTOS_SITE_ROOT: "target/site",
        JAY_MODELS: "end2end/fake-models.toml",
        HF_TOKEN: "",
      },
    },
  ],
});
