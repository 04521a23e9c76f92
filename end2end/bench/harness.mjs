// What the browser benchmarks (tick.mjs, hydrate.mjs) share: the release
// server on a free loopback port with no token, the repository's registry, a
// throw-away data folder and an allowance no benchmark uses up; Chromium
// (Debian's, as the end-to-end tests use it); both stopped and cleaned up
// whatever happens.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../chromium.mjs";

/** The repository's root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** A port the OS says is free on 127.0.0.1. */
function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.on("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });
}

/** Polls `url` until it answers 200, for at most `ms`. */
async function waitForHealth(url, server, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

/**
 * Runs `body(base, browser)` against the build `binary` + `site` (paths from
 * the repository's root); `name` prefixes messages. Exits 2 when the build is
 * missing.
 */
export async function withServerAndBrowser({ name, binary, site }, body) {
  const bin = resolve(root, binary);
  const siteRoot = resolve(root, site);
  for (const [path, what] of [[bin, "the server binary"], [join(siteRoot, "pkg"), "the built site"]]) {
    if (!existsSync(path)) {
      console.error(`${name}: ${path} (${what}) is missing: run \`cargo leptos build --release\` first`);
      process.exit(2);
    }
  }
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `jay-${name}-`));
  const env = { ...process.env };
  delete env.HF_TOKEN;
  delete env.JAY_MODELS;
  Object.assign(env, {
    LEPTOS_SITE_ROOT: siteRoot,
    LEPTOS_SITE_ADDR: `127.0.0.1:${port}`,
    LEPTOS_ENV: "PROD",
    JAY_RATE_BURST: "10000",
    JAY_DATA_DIR: dataDir,
    RUST_LOG: "warn",
  });
  const server = spawn(bin, [], { cwd: root, env, stdio: ["ignore", "ignore", "inherit"] });
  let browser;
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHealth(`${base}/healthz`, server);
    browser = await chromium.launch({
      ...(existsSync(CHROMIUM_PATH) ? { executablePath: CHROMIUM_PATH } : {}),
      args: CHROMIUM_ARGS,
    });
    return await body(base, browser);
  } finally {
    await browser?.close();
    server.kill("SIGTERM");
    await new Promise((r) => (server.exitCode !== null ? r() : server.once("exit", r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
