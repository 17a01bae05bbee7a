import AxeBuilder from "@axe-core/playwright";
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  test as base,
  type ConsoleMessage,
  expect,
  type Page,
  type TestInfo,
} from "@playwright/test";
import type { PlanId } from "../src/shared/plans";
import type { Role } from "../src/shared/roles";
import type { CurrentUser, UserSummary } from "../src/shared/users";
import { largeFirm } from "./large-firm";

/** The demo firm the e2e server seeds (src/server/seed/demo-seed.ts). */
export const demoPassword = "tendwell-demo";
export const demoUsers: Record<Role, { username: string; fullName: string }> = {
  super_admin: { username: "olivia.hart", fullName: "Olivia Hart" },
  admin: { username: "marcus.chen", fullName: "Marcus Chen" },
  user: { username: "priya.nair", fullName: "Priya Nair" },
};

/** Signs the page's browser context in over the API, as a user of the demo firm with this role. */
export async function signInAs(page: Page, role: Role): Promise<void> {
  const response = await page.request.post("/api/auth/login", {
    data: { username: demoUsers[role].username, password: demoPassword },
  });
  expect(response.status(), `sign in as ${role}`).toBe(200);
}

/** Signs the page's browser context in to the large firm (10,000 clients, 100,000 tasks). */
export async function signInToLargeFirm(page: Page, role: "super_admin" | "user"): Promise<void> {
  const login = role === "super_admin" ? largeFirm.logins.superAdmin : largeFirm.logins.user;
  const response = await page.request.post("/api/auth/login", { data: login });
  expect(response.status(), `sign in to the large firm as ${role}`).toBe(200);
}

/** GET an API path with the page's session and return its JSON. */
export async function apiGet<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url);
  expect(response.status(), url).toBe(200);
  return (await response.json()) as T;
}

/**
 * Every animation and transition of the page with an end (not a spinner's) is over: what moves
 * has come to rest where it stays.
 */
export async function waitForAnimations(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== "running" || animation.effect?.getTiming().iterations === Infinity),
  );
}

/**
 * No accessibility violations axe can find on the page as it is once its animations are over.
 * With `popupOpen`, the "region" rule is left out: a menu or popover is portaled to the end of
 * <body>, outside the landmarks, by design (Radix), and it is reached from its trigger, not by
 * landmark.
 */
export async function expectNoAxeViolations(page: Page, options: { popupOpen?: boolean } = {}): Promise<void> {
  // A dialog fading in is read at part of its opacity, and its colours then fail the contrast rule.
  await waitForAnimations(page);
  // axe.run in the page itself: the default injects axe into the page twice and once more into a
  // blank page it opens to combine the frames' results, for cross-origin frames the app has none of.
  const builder = new AxeBuilder({ page }).setLegacyMode();
  if (options.popupOpen) builder.disableRules(["region"]);
  const results = await builder.analyze();
  const found = results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
  expect(found).toEqual([]);
}

/** The page fits the viewport's width: nothing scrolls sideways (issue 8, at 375 px). */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** Keeps a screenshot of the page with the test's results (issue 8: every screen at 1280 and 375 px). */
export async function attachScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
}

/**
 * Holds every request to `url` until `release()` is called, so a pending state can be observed.
 * Returns the release function.
 */
export async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * Lets `ms` pass on the page's clock (installed with `page.clock.install()` before the page
 * loaded), so the timers a retry or a refetch would use fire, then sends a request of its own and
 * waits for it. The browser reports a page's requests in the order it sends them, so any request
 * those timers sent has been seen once this one has: an absence is checked without a sleep.
 */
export async function letTimePass(page: Page, ms: number): Promise<void> {
  await page.clock.runFor(ms);
  const marker = `/api/health?after=${ms}ms`;
  await Promise.all([
    page.waitForRequest((request) => request.url().endsWith(marker)),
    page.evaluate((url) => fetch(url).then((response) => response.status), marker),
  ]);
}

export const viewports = {
  desktop: { width: 1280, height: 860 },
  mobile: { width: 375, height: 812 },
} as const;

export type BothWidthsOptions = {
  /** A menu or popover is open: see expectNoAxeViolations. */
  popupOpen?: boolean;
  /** What only this width shows, or what its screenshot frames: run once the layout follows the width. */
  atWidth?: (width: number) => Promise<unknown>;
  /** Keeps the screenshot of this name (default: attachScreenshot, the whole page). */
  screenshot?: (name: string) => Promise<unknown>;
};

/**
 * The page as it stands, checked at 1280 px and then at 375 px by resizing the same page: the
 * screen is set up once for both widths (issue 42), not once per width. At each width, once the
 * layout follows it, `atWidth` runs, axe finds no violations, nothing scrolls sideways and a
 * screenshot `${name}-${width}` is kept (issue 8). The page is left at 375 px. The app follows a
 * resize (its media queries and the client grid's listeners), so what shows is what a page opened
 * at that width shows. Each call gives the test 30 s more.
 */
export async function checkAtBothWidths(
  page: Page,
  testInfo: TestInfo,
  name: string,
  { popupOpen = false, atWidth, screenshot }: BothWidthsOptions = {},
): Promise<void> {
  // Two axe runs and two screenshots take up to half a minute on two shared cores: time the test's
  // own timeout, set for its setup and one width, does not count.
  if (testInfo.timeout > 0) testInfo.setTimeout(testInfo.timeout + 30_000);
  for (const viewport of [viewports.desktop, viewports.mobile]) {
    await page.setViewportSize(viewport);
    // Resize and media query listeners run before the next frame's callbacks: a frame after that
    // one, React has drawn what they changed.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null)))),
    );
    await atWidth?.(viewport.width);
    await expectNoAxeViolations(page, { popupOpen });
    await expectNoHorizontalScroll(page);
    const shot = `${name}-${viewport.width}`;
    await (screenshot ? screenshot(shot) : attachScreenshot(page, testInfo, shot));
  }
}

/*
 * A firm of the test's own. The demo firm is shared by every test of the run, and many compare its
 * figures (dashboard counts, lists, reports, the bell) with the screen: a test that creates or
 * changes data does so in a firm nobody else reads. The firm is made through the app's own public
 * path: POST /api/auth/register (no-card mode) makes the firm and its super admin, and its users of
 * other roles are made by that super admin through POST /api/users, on first use. Sign-ins are
 * real POST /api/auth/login calls; a successful one leaves nothing for the sign-in throttle to count.
 * It is for the "app" project: on the card-mode server registration needs a card setup first.
 */

/** A user of an own firm, with the password to sign in. */
export type FirmUser = { id: string; username: string; password: string; fullName: string; role: Role };

/** Not one of the common passwords registration refuses. */
const ownFirmPassword = "own-firm-ledger-e2e";
const ownFirmNames: Record<Role, string> = {
  super_admin: "Rosa Lindqvist",
  admin: "Theo Marsh",
  user: "Ines Calder",
};

let ownFirmSequence = 0;
/** A username no other test, worker or earlier run on the same server uses (3-50 of [A-Za-z0-9._-]). */
function ownFirmUsername(prefix: string): string {
  ownFirmSequence += 1;
  const id = `${Date.now().toString(36)}${process.pid.toString(36)}${ownFirmSequence}${Math.random().toString(36).slice(2, 6)}`;
  return `${prefix}.${id}`.slice(0, 50);
}

export class OwnFirm {
  private readonly made = new Map<Role, Promise<FirmUser>>();

  private constructor(
    /** The API as the firm's super admin, in a request context of its own (not the page's). */
    readonly api: APIRequestContext,
    /** The firm's super admin, who registered it. */
    readonly owner: FirmUser,
    readonly firmId: string,
    /** The firm's name: registration names it after its first user. */
    readonly name: string,
  ) {
    this.made.set("super_admin", Promise.resolve(owner));
  }

  /**
   * Registers a new firm on `plan` through `api`, which is then signed in as its super admin: a
   * context of its own, or a page's `page.request` to sign that page in. The owner's name and
   * password may be chosen (some specs read them back).
   */
  static async register(
    api: APIRequestContext,
    plan: PlanId,
    { fullName = ownFirmNames.super_admin, password = ownFirmPassword }: { fullName?: string; password?: string } = {},
  ): Promise<OwnFirm> {
    const username = ownFirmUsername("own");
    const response = await api.post("/api/auth/register", {
      data: { fullName, email: `${username}@own-firm.example`, username, password, subscriptionPlan: plan },
    });
    expect(response.status(), `register an own firm: ${await response.text()}`).toBe(201);
    const me = (await response.json()) as CurrentUser;
    const owner: FirmUser = { id: me.id, username, password, fullName, role: "super_admin" };
    return new OwnFirm(api, owner, me.firm.id, me.firm.name);
  }

  /** The firm's user of this role: the owner for super_admin, otherwise made on first ask. */
  user(role: Role): Promise<FirmUser> {
    let user = this.made.get(role);
    if (!user) {
      user = this.addUser(role, ownFirmNames[role]);
      this.made.set(role, user);
    }
    return user;
  }

  /** Another user of the firm, made by its super admin over POST /api/users. */
  async addUser(role: Role, fullName: string = ownFirmNames[role]): Promise<FirmUser> {
    const username = ownFirmUsername(role.replace("_", "-"));
    const response = await this.api.post("/api/users", {
      data: { username, password: ownFirmPassword, fullName, role },
    });
    expect(response.status(), `add a ${role} to the own firm: ${await response.text()}`).toBe(201);
    const user = (await response.json()) as UserSummary;
    return { id: user.id, username, password: ownFirmPassword, fullName, role };
  }

  /** Signs the page's browser context in (POST /api/auth/login) as the firm's user of this role, or this user. */
  async signIn(page: Page, who: Role | FirmUser = "super_admin"): Promise<FirmUser> {
    const user = typeof who === "string" ? await this.user(who) : who;
    const response = await page.request.post("/api/auth/login", {
      data: { username: user.username, password: user.password },
    });
    expect(response.status(), `sign in to the own firm as ${user.role}`).toBe(200);
    return user;
  }
}

export type SeedFirmOptions = { plan?: PlanId };

/**
 * The browser console of a test. A test that provokes an error or a warning on purpose declares it:
 * the message must then appear, and is not counted as noise. Keep declarations narrow and say at
 * the call why the message is expected.
 */
export type BrowserConsole = {
  /** A console message matching `pattern`. */
  expect(pattern: RegExp): void;
  /**
   * A request the test makes fail, which the browser logs as a failed resource: its status (or a
   * network error such as "net::ERR_FAILED") and the start of its path, e.g. (404, "/api/clients/").
   */
  expectFailedRequest(failure: number | string, path: string): void;
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The console line (see consoleLine) of a failed request to `path`. */
function failedRequestPattern(failure: number | string, path: string): RegExp {
  const reason = typeof failure === "number" ? `the server responded with a status of ${failure} ` : failure;
  return new RegExp(
    `^error: Failed to load resource: ${escapeRegExp(reason)}.* \\[https?://[^/\\]]+${escapeRegExp(path)}`,
  );
}

/**
 * One console line as a failure shows it: its kind, its text, where it comes from (for a failed
 * request, the request's URL, which the text leaves out) and the page it came from.
 */
function consoleLine(message: ConsoleMessage): string {
  return `${message.type()}: ${message.text()} [${message.location().url}] (on ${message.page()?.url() ?? "a worker"})`;
}

/**
 * Every test, on every page of every browser context it opens, ends with a clean console: no error,
 * no warning and no uncaught page error beyond those it declared through `browserConsole`. Otherwise
 * the test fails with the messages. Noise in the console is a bug a user never reports but pays for
 * (a failed request, a warning React or the router gives about our code).
 */
async function watchBrowserConsole(
  { browser, context }: { browser: Browser; context: BrowserContext },
  use: (console: BrowserConsole) => Promise<void>,
  testInfo: TestInfo,
): Promise<void> {
  const expected: RegExp[] = [];
  const seen: string[] = [];
  const watch = (watched: BrowserContext) => {
    watched.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") seen.push(consoleLine(message));
    });
    watched.on("weberror", (error) => {
      seen.push(`page error: ${error.error().message} (on ${error.page()?.url() ?? "a worker"})`);
    });
  };
  watch(context);
  // Contexts the test opens itself (a second visitor, another firm's user) are watched as well.
  browser.on("context", watch);
  await use({
    expect: (pattern) => expected.push(pattern),
    expectFailedRequest: (failure, path) => expected.push(failedRequestPattern(failure, path)),
  });
  browser.off("context", watch);

  const unexpected = seen.filter((line) => !expected.some((pattern) => pattern.test(line)));
  expect(unexpected, "console errors and warnings in the browser").toEqual([]);
  // A test that failed earlier may not have reached what provokes its expected message.
  if (testInfo.status === testInfo.expectedStatus) {
    const missing = expected.filter((pattern) => !seen.some((line) => pattern.test(line))).map(String);
    expect(missing, "console messages the test expected but the browser never gave").toEqual([]);
  }
}

/**
 * The `test` of every spec: `browserConsole` (automatic: the console check above), `ownFirm` (a new
 * firm for this test, registered when the test asks for it) and `seedFirm()` (another one, for a
 * test that needs two).
 */
export const test = base.extend<{
  browserConsole: BrowserConsole;
  seedFirm: (options?: SeedFirmOptions) => Promise<OwnFirm>;
  ownFirm: OwnFirm;
}>({
  browserConsole: [watchBrowserConsole, { auto: true }],
  /*
   * The context is reused from test to test (playwright.config.ts). Playwright's reset between
   * tests leaves the permissions a test granted (the clipboard's): they end with the test. The
   * page's clock outlives the reset (its script breaks the next test's first page), so a context
   * whose clock was installed is closed after its test, and the next test gets a new one.
   */
  context: async ({ context, reuseContext }, use) => {
    let clockInstalled = false;
    if (reuseContext) {
      const install = context.clock.install.bind(context.clock);
      context.clock.install = (options) => {
        clockInstalled = true;
        return install(options);
      };
    }
    await use(context);
    await context.clearPermissions();
    if (clockInstalled) await context.close();
  },
  seedFirm: async ({ playwright, baseURL }, use) => {
    const contexts: APIRequestContext[] = [];
    await use(async ({ plan = "professional" } = {}) => {
      const api = await playwright.request.newContext({ baseURL });
      contexts.push(api);
      return OwnFirm.register(api, plan);
    });
    await Promise.all(contexts.map((context) => context.dispose()));
  },
  ownFirm: async ({ seedFirm }, use) => {
    await use(await seedFirm());
  },
});
