// How the tests and the benchmarks launch Chromium: Debian's (`.ci/setup`
// installs it; Playwright never downloads a browser here), with the flags that
// stop it from calling home (these machines have no network, and such calls
// only slow it down).
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
