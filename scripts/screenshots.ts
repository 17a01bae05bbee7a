import fs from "node:fs";
import path from "node:path";
import { type Browser, chromium, type Page } from "@playwright/test";
import sharp from "sharp";
import type { ClientDetail, ClientSummary } from "../src/shared/clients";
import { socialScreenshot } from "../src/site/landing/screenshots";
import { projectRoot, startBuiltApp, withCleanup } from "./built-app";
import { chromiumArgs, chromiumPath } from "./chromium";

/*
 * The landing carousel's screenshots (issue 10): the built app with the demo firm, in Debian's
 * Chromium, signed in as the demo super admin, at 1280 x 800. Each screen is written as WebP at
 * 1280 and 640 pixels wide into src/client/public/screenshots (Vite's publicDir, so they ship
 * as /screenshots/<name>-<width>.webp), overwriting the previous run's files; and the dashboard
 * once more as the 1200 x 630 JPEG of the landing page's link previews.
 * Run: npm run screenshots (it builds first). SCREENSHOTS_PORT picks the port (default 4205).
 */

const outDir = path.join(projectRoot, "src", "client", "public", "screenshots");
const viewport = { width: 1280, height: 800 };
const widths = [1280, 640] as const;
/** Byte budgets per width: the quality steps down until a picture fits (never below minQuality). */
const budgets: Record<(typeof widths)[number], number> = { 1280: 120_000, 640: 45_000 };
const startQuality = 90;
const minQuality = 70;
const demoLogin = { username: "olivia.hart", password: "tendwell-demo", fullName: "Olivia Hart" };

/*
 * No motion, no caret, no scrollbars: the pictures show the page at rest. Dialogs and toasts
 * animate in, and a caret or a half-faded overlay would be frozen mid-blink.
 */
const stillStyle = `
  *, *::before, *::after {
    animation-duration: 0s !important;
    animation-delay: 0s !important;
    transition-duration: 0s !important;
    transition-delay: 0s !important;
    caret-color: transparent !important;
  }
  html { scrollbar-width: none; }
`;

type Shot = { name: string; capture: (page: Page) => Promise<void> };

async function main() {
  const app = await startBuiltApp({
    port: Number(process.env.SCREENSHOTS_PORT ?? 4205),
    env: { RATE_LIMIT_PER_MINUTE: "100000" },
  });
  let browser: Browser | undefined;
  await withCleanup(
    async () => {
      await browser?.close();
      await app.stop();
    },
    async () => {
      browser = await chromium.launch({
        executablePath: chromiumPath,
        args: chromiumArgs,
      });
      const context = await browser.newContext({
        baseURL: app.baseUrl,
        viewport,
        deviceScaleFactor: 1,
        locale: "en-US",
        timezoneId: "America/New_York",
        colorScheme: "light",
        reducedMotion: "reduce",
      });
      const login = await context.request.post("/api/auth/login", {
        data: { username: demoLogin.username, password: demoLogin.password },
        headers: { origin: app.baseUrl },
      });
      if (!login.ok()) throw new Error(`sign-in failed: ${login.status()} ${await login.text()}`);

      const client = await richestClient(context.request);
      const shots: Shot[] = [
        { name: "client-management", capture: (page) => open(page, "/clients") },
        { name: "dashboard", capture: (page) => open(page, "/dashboard") },
        { name: "tasks", capture: (page) => open(page, "/tasks") },
        { name: "relationship-hub", capture: (page) => open(page, `/client/${client.id}`) },
        { name: "signature", capture: (page) => signing(page, client) },
      ];

      fs.mkdirSync(outDir, { recursive: true });
      for (const shot of shots) {
        const page = await context.newPage();
        await page.addInitScript((css) => {
          document.addEventListener("DOMContentLoaded", () => {
            const style = document.createElement("style");
            style.textContent = css;
            document.head.append(style);
          });
        }, stillStyle);
        await shot.capture(page);
        await atRest(page);
        const png = await page.screenshot({ type: "png", animations: "disabled", caret: "hide" });
        await page.close();
        for (const width of widths) {
          const file = path.join(outDir, `${shot.name}-${width}.webp`);
          const { bytes, quality } = await writeWebp(png, width, file);
          console.log(`${path.relative(projectRoot, file)}  ${(bytes / 1024).toFixed(1)} KB (quality ${quality})`);
        }
        if (shot.name === socialScreenshot.name) await writeSocialCard(png);
      }
    },
  );
}

/**
 * The demo client that makes the fullest detail page: contacts, an assigned team, and tasks in
 * each state, with a pending (not yet due) task to sign.
 */
async function richestClient(request: import("@playwright/test").APIRequestContext): Promise<ClientDetail> {
  const list = (await (await request.get("/api/clients?limit=500")).json()) as ClientSummary[];
  const details: ClientDetail[] = [];
  for (const summary of list) {
    if (summary.status !== "active") continue;
    const response = await request.get(`/api/clients/${summary.id}`);
    if (response.ok()) details.push((await response.json()) as ClientDetail);
  }
  const now = Date.now();
  const score = (client: ClientDetail) => {
    const tasks = client.tasks ?? [];
    const pending = tasks.filter((task) => !task.completedAt && task.dueDate && Date.parse(task.dueDate) > now);
    const overdue = tasks.filter((task) => !task.completedAt && task.dueDate && Date.parse(task.dueDate) <= now);
    const completed = tasks.filter((task) => task.completedAt);
    if (pending.length === 0) return -1;
    return (
      client.contacts.length * 3 +
      Math.min(tasks.length, 5) +
      (completed.length > 0 ? 3 : 0) +
      (overdue.length > 0 ? 2 : 0) +
      // The information card is narrow: a long e-mail address or street wraps onto a second line.
      ((client.email ?? "").length <= 30 ? 2 : 0) +
      ((client.address ?? "").length <= 32 ? 1 : 0)
    );
  };
  const best = [...details].sort((a, b) => score(b) - score(a) || a.name.localeCompare(b.name))[0];
  if (!best || score(best) < 0) throw new Error("no demo client with a pending task");
  return best;
}

/** Goes to the path and waits until its data, fonts and images are in and no skeleton is left. */
async function open(page: Page, pathname: string) {
  await page.goto(pathname, { waitUntil: "networkidle" });
  if (new URL(page.url()).pathname === "/login") throw new Error(`${pathname} sent the browser to /login`);
  await settle(page);
}

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(
    () =>
      document.querySelector("main") !== null &&
      document.querySelectorAll(".animate-pulse, .animate-spin").length === 0,
    undefined,
    { timeout: 30_000 },
  );
  await page
    .getByText(/Loading/)
    .filter({ visible: true })
    .first()
    .waitFor({ state: "detached", timeout: 30_000 });
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all(
      [...document.images].map((image) =>
        image.complete ? undefined : new Promise((resolve) => image.addEventListener("load", resolve, { once: true })),
      ),
    );
  });
}

/** The complete-task dialog on the client's first pending task, signed and named, not submitted. */
async function signing(page: Page, client: ClientDetail) {
  await open(page, `/client/${client.id}`);
  const now = Date.now();
  const task = client.tasks
    .filter((item) => !item.completedAt && item.dueDate && Date.parse(item.dueDate) > now)
    .sort((a, b) => String(a.dueDate).localeCompare(String(b.dueDate)))[0];
  if (!task) throw new Error(`${client.name} has no pending task`);
  const row = page.getByTestId("task").filter({ hasText: task.name }).first();
  await row.getByRole("button", { name: "Complete" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("heading", { name: "Complete Task" }).waitFor();
  const pad = dialog.locator("canvas");
  await pad.waitFor();
  const box = await pad.boundingBox();
  if (!box) throw new Error("the signature pad is not on screen");
  for (const stroke of signatureStrokes()) {
    const [first, ...rest] = stroke;
    if (!first) continue;
    await page.mouse.move(box.x + first[0] * box.width, box.y + first[1] * box.height);
    await page.mouse.down();
    for (const [x, y] of rest) await page.mouse.move(box.x + x * box.width, box.y + y * box.height);
    await page.mouse.up();
  }
  await dialog.getByLabel("Print Name").fill(demoLogin.fullName);
}

/**
 * A handwritten-looking "Olivia Hart" in pad units (0 to 1 across and down): a looping capital,
 * then cursive loops (trochoids) of letter-like heights, a capital H and an underline flourish.
 */
function signatureStrokes(): [number, number][][] {
  const cursive = (startX: number, baseY: number, heights: number[], step: number) => {
    const points: [number, number][] = [];
    heights.forEach((height, letter) => {
      for (let i = 0; i <= 12; i++) {
        const t = ((letter * 12 + i) / 12) * Math.PI * 2;
        const x = startX + (step * t) / (Math.PI * 2) - 0.018 * Math.sin(t);
        const y = baseY - (height * (1 - Math.cos(t))) / 2;
        if (i > 0 || letter === 0) points.push([x, y]);
      }
    });
    return points;
  };
  const capitalO: [number, number][] = [];
  for (let i = 0; i <= 36; i++) {
    const t = (i / 36) * Math.PI * 2.2 - Math.PI / 2;
    capitalO.push([0.13 + 0.055 * Math.cos(t) + 0.02 * Math.sin(t), 0.5 + 0.28 * Math.sin(t)]);
  }
  return [
    capitalO,
    // l, i, v, i, a
    cursive(0.2, 0.66, [0.5, 0.16, 0.2, 0.15, 0.18], 0.045),
    // H: two uprights and the bar that runs on into "art"
    [
      [0.52, 0.2],
      [0.51, 0.45],
      [0.505, 0.7],
    ],
    [
      [0.6, 0.22],
      [0.59, 0.46],
      [0.585, 0.7],
    ],
    [
      [0.49, 0.48],
      [0.55, 0.46],
      [0.6, 0.45],
      ...cursive(0.61, 0.66, [0.18, 0.2, 0.36], 0.05).slice(1),
      [0.79, 0.6],
      [0.84, 0.52],
    ],
    [
      [0.11, 0.88],
      [0.35, 0.85],
      [0.6, 0.83],
      [0.86, 0.8],
    ],
  ];
}

/** No focus ring, no hover, no toast: the pointer leaves for a corner and focus is dropped. */
async function atRest(page: Page) {
  await page.mouse.move(viewport.width - 2, viewport.height - 2);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.waitForFunction(() => document.querySelectorAll("[data-app-toast]").length === 0, undefined, {
    timeout: 15_000,
  });
  await page.waitForTimeout(300);
}

/**
 * The landing page's link-preview picture: the dashboard at 1200 x 630 (the top of the screen,
 * scaled to fill), as JPEG, since LinkedIn and others do not show WebP.
 */
async function writeSocialCard(png: Buffer) {
  const file = path.join(projectRoot, "src", "client", "public", socialScreenshot.src);
  const jpeg = await sharp(png)
    .resize(socialScreenshot.width, socialScreenshot.height, { fit: "cover", position: "top", kernel: "lanczos3" })
    .jpeg({ quality: 85, mozjpeg: true })
    .toBuffer();
  fs.writeFileSync(file, jpeg);
  console.log(`${path.relative(projectRoot, file)}  ${(jpeg.length / 1024).toFixed(1)} KB`);
}

/** WebP at the width, at the highest quality (from 90 down to 70) that fits the width's budget. */
async function writeWebp(png: Buffer, width: (typeof widths)[number], file: string) {
  let quality = startQuality;
  for (;;) {
    const webp = await sharp(png)
      .resize({ width, kernel: "lanczos3" })
      .webp({ quality, alphaQuality: 100, effort: 6, smartSubsample: true })
      .toBuffer();
    if (webp.length <= budgets[width] || quality <= minQuality) {
      fs.writeFileSync(file, webp);
      return { bytes: webp.length, quality };
    }
    quality -= 2;
  }
}

await main();
