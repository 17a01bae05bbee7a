import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BundleReport, dashboardBudgetBytes, filesNeeded, landingBudgetBytes, measureBundle } from "./bundle-size";

// A fresh build of the current sources, so a stale dist/ can never pass the budget.
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "tendwell-bundle-"));
let report: BundleReport;

beforeAll(() => {
  const vite = path.resolve("node_modules", "vite", "bin", "vite.js");
  execFileSync(process.execPath, [vite, "build", "--logLevel", "error", "--outDir", outDir, "--emptyOutDir"], {
    stdio: "inherit",
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
    env: { ...process.env, NODE_ENV: "production" },
  });
  report = measureBundle(outDir);
}, 180_000);

afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

describe("the bundle budget (issue 8)", () => {
  it("keeps the JavaScript for /dashboard within 250 KB gzipped", () => {
    expect(report.dashboardFiles.length).toBeGreaterThan(0);
    expect(report.dashboardGzipBytes).toBeLessThanOrEqual(dashboardBudgetBytes);
  });

  it("loads other pages' code only when they are visited", () => {
    expect(report.dashboardFiles.some((file) => file.includes("login-page"))).toBe(false);
    expect(report.dashboardFiles.some((file) => file.includes("clients-page"))).toBe(false);
  });
});

describe("the landing page's budget (issue 10)", () => {
  it("keeps the landing page's JavaScript within 100 KB gzipped", () => {
    expect(report.landingFiles.length).toBeGreaterThan(0);
    expect(report.landingFiles.some((file) => /\/site-[\w-]+\.js$/.test(file))).toBe(true);
    expect(report.landingGzipBytes).toBeLessThanOrEqual(landingBudgetBytes);
  });

  it("loads none of the signed-in app's code", () => {
    for (const page of ["app-shell", "dashboard-page", "login-page", "index-"]) {
      expect(report.landingFiles.some((file) => file.includes(page))).toBe(false);
    }
  });
});

describe("filesNeeded", () => {
  const manifest = {
    "index.html": { file: "assets/index.js", imports: ["_shared.js"] },
    "_shared.js": { file: "assets/shared.js", imports: ["index.html"] },
    "page.tsx": { file: "assets/page.js", imports: ["_shared.js"], css: ["assets/page.css"] },
  };

  it("follows static imports once each, through cycles", () => {
    expect(filesNeeded(manifest, ["index.html", "page.tsx"])).toEqual([
      "assets/index.js",
      "assets/page.js",
      "assets/shared.js",
    ]);
  });

  it("names a module the manifest lacks", () => {
    expect(() => filesNeeded(manifest, ["gone.tsx"])).toThrow(/no module "gone.tsx"/);
  });
});
