import { randomBytes } from "node:crypto";
import { and, count, desc, eq } from "drizzle-orm";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { type ApiClient, apiClient } from "../../../../tests/api-client";
import { seedFirm, signIn } from "../../../../tests/fixtures";
import { stripeTestKeys } from "../../../../tests/stripe-stand-in";
import { type TestApp, useTestApp } from "../../../../tests/test-app";
import { useStripeStandIn } from "../../../../tests/use-stripe-stand-in";
import { paymentNotInitializedMessage } from "../../../shared/billing";
import { auditEvents, billingSetups, clients, firms, stripeEvents, taskTemplates } from "../../platform/db/schema";
import { SETUP_COOKIE, setupNotFoundMessage } from "./billing.service";
import { providerUnavailableMessage } from "./stripe";

let addressCount = 0;
/** A client address of its own for each browser: the payment step's limit counts per address. */
const freshIp = () => `198.51.100.${(addressCount++ % 250) + 1}`;
const uniqueName = (prefix: string) => `${prefix}${randomBytes(4).toString("hex")}`;

const registration = (overrides: Record<string, unknown> = {}) => {
  const username = uniqueName("owner.");
  return {
    fullName: "Dana Whitfield",
    email: `${username}@example.com`,
    username,
    password: "ledger-balance-2026",
    subscriptionPlan: "professional",
    ...overrides,
  };
};

const setCookieOf = (headers: Record<string, unknown>, name: string): string | undefined =>
  [headers["set-cookie"]]
    .flat()
    .find((value): value is string => typeof value === "string" && value.startsWith(`${name}=`));

const csp = (headers: Record<string, unknown>) => String(headers["content-security-policy"]);

// -------------------------------------------------------------------------------------------------

describe("billing without Stripe (the embedded default)", () => {
  const ctx = useTestApp();

  it("GET /api/billing/config answers a null key without a session: no card is needed", async () => {
    const response = await apiClient(ctx.app).get("/api/billing/config");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ stripePublishableKey: null });
  });

  it("S-API-07 POST /api/create-subscription-setup is a clear 409 without card payments", async () => {
    const response = await apiClient(ctx.app, { ip: freshIp() }).post("/api/create-subscription-setup", {
      email: "dana@example.com",
      fullName: "Dana Whitfield",
      plan: "starter",
    });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ code: "CONFLICT", message: "Card payments are not set up on this installation" });
  });

  it("the webhook is a 404 JSON answer", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/stripe/webhook",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=00" },
      payload: "{}",
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: "NOT_FOUND" });
  });

  it("S-ROLE-18 S-PAY-15 registration is unchanged: a firm on a 14-day trial whose first user is super_admin, no card billing", async () => {
    const browser = apiClient(ctx.app);
    const body = registration();
    const registered = await browser.post("/api/auth/register", body);
    expect(registered.status).toBe(201);
    expect((await browser.get("/api/auth/me")).body.role).toBe("super_admin");
    const billing = await browser.get("/api/billing");
    expect(billing.status).toBe(200);
    expect(billing.body).toEqual({
      plan: "professional",
      subscriptionStatus: "trialing",
      trialEndsAt: registered.body.firm.trialEndsAt,
      cardBilling: false,
    });
    const days = (Date.parse(billing.body.trialEndsAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
  });

  it("keeps the pages' strict CSP: no Stripe origin anywhere", async () => {
    const response = await apiClient(ctx.app).get("/robots.txt");
    expect(csp(response.headers)).not.toContain("stripe.com");
    expect(csp(response.headers)).toContain("script-src 'self';");
    expect(csp(response.headers)).not.toContain("frame-src");
  });

  it("S-ROLE-17 GET /api/billing and PUT /api/billing/plan: admin and user get 403, anonymous 401", async () => {
    const seeded = await seedFirm(ctx.database.db, "Role Firm");
    for (const role of ["admin", "user"] as const) {
      const client = await signIn(ctx.app, seeded.users[role]);
      const read = await client.get("/api/billing");
      expect(read.status).toBe(403);
      expect(read.body.code).toBe("FORBIDDEN");
      const change = await client.put("/api/billing/plan", { plan: "enterprise" });
      expect(change.status).toBe(403);
    }
    expect((await apiClient(ctx.app).get("/api/billing")).status).toBe(401);
    const [firm] = await ctx.database.db.select().from(firms).where(eq(firms.id, seeded.firm.id));
    expect(firm?.plan).toBe(seeded.firm.plan);
    const owner = await signIn(ctx.app, seeded.users.super_admin);
    expect((await owner.get("/api/billing")).status).toBe(200);
  });

  it("S-ROLE-17 a super admin changes the plan (audited); a plan below the firm's active clients or custom templates is a 409 naming it", async () => {
    const browser = apiClient(ctx.app);
    const registered = await browser.post("/api/auth/register", registration({ subscriptionPlan: "enterprise" }));
    const firmId: string = registered.body.firm.id;
    await ctx.database.db
      .insert(clients)
      .values(
        Array.from({ length: 101 }, (_, index) => ({ firmId, name: `Client ${String(index).padStart(3, "0")}` })),
      );
    const refused = await browser.put("/api/billing/plan", { plan: "starter" });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("CONFLICT");
    expect(refused.body.message).toBe(
      "The Starter plan allows up to 100 active clients; your firm has 101. Archive clients first or choose a larger plan.",
    );
    expect((await browser.get("/api/billing")).body.plan).toBe("enterprise");

    const changed = await browser.put("/api/billing/plan", { plan: "professional" });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ plan: "professional", cardBilling: false });
    expect((await browser.get("/api/auth/me")).body.firm.plan).toBe("professional");
    const [event] = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.firmId, firmId), eq(auditEvents.action, "billing.plan_changed")));
    expect(event).toMatchObject({
      actorUserId: registered.body.id,
      before: { plan: "enterprise" },
      after: { plan: "professional" },
    });

    // Custom templates count too (the library's do not): 21 are one more than Starter allows.
    await ctx.database.db.delete(clients).where(eq(clients.firmId, firmId));
    const template = (index: number, libraryKey: string | null) => ({
      firmId,
      name: `Template ${index}`,
      description: "A recurring piece of work",
      createdBy: registered.body.id,
      libraryKey,
    });
    await ctx.database.db
      .insert(taskTemplates)
      .values([
        ...Array.from({ length: 21 }, (_, index) => template(index, null)),
        template(99, "accounting-monthly-bookkeeping"),
      ]);
    const tooManyTemplates = await browser.put("/api/billing/plan", { plan: "starter" });
    expect(tooManyTemplates.status).toBe(409);
    expect(tooManyTemplates.body.message).toBe(
      "The Starter plan allows up to 20 custom task templates; your firm has 21. Delete templates first or choose a larger plan.",
    );
    expect((await browser.get("/api/billing")).body.plan).toBe("professional");

    const bad = await browser.put("/api/billing/plan", { plan: "platinum" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Choose a plan: starter, professional or enterprise");
    expect((await browser.put("/api/billing/plan", { plan: "starter", extra: 1 })).status).toBe(400);
  });
});

// -------------------------------------------------------------------------------------------------

describe("billing with Stripe (the real SDK against the local stand-in)", () => {
  const stripeApi = useStripeStandIn();
  const ctx: TestApp = useTestApp({ env: () => stripeApi.env() });
  const signer = new Stripe(stripeTestKeys.STRIPE_SECRET_KEY);

  const startSetup = async (browser: ApiClient, input: { email: string; fullName: string; plan: string }) =>
    browser.post("/api/create-subscription-setup", input);

  /** A browser through the payment step and registration, as onboarding runs them. */
  const onboard = async (plan = "professional") => {
    const browser = apiClient(ctx.app, { ip: freshIp() });
    const body = registration({ subscriptionPlan: plan });
    const setup = await startSetup(browser, { email: body.email, fullName: body.fullName, plan });
    expect(setup.status).toBe(200);
    const registered = await browser.post("/api/auth/register", body);
    expect(registered.status).toBe(201);
    const [firm] = await ctx.database.db.select().from(firms).where(eq(firms.id, registered.body.firm.id));
    if (!firm?.stripeSubscriptionId || !firm.stripeCustomerId) throw new Error("the firm was not linked");
    return {
      browser,
      body,
      registered,
      firm: { ...firm, stripeSubscriptionId: firm.stripeSubscriptionId, stripeCustomerId: firm.stripeCustomerId },
    };
  };

  const firmRow = async (id: string) => {
    const [row] = await ctx.database.db.select().from(firms).where(eq(firms.id, id));
    if (!row) throw new Error("no firm");
    return row;
  };

  let eventCount = 0;
  const subscriptionEvent = (
    type: string,
    subscription: { id: string; customer: string; status: string; trial_end: number | null },
    options: { id?: string; created?: number } = {},
  ) =>
    JSON.stringify({
      id: options.id ?? `evt_test_${Date.now()}_${eventCount++}`,
      object: "event",
      api_version: "2026-10-28.endive",
      created: options.created ?? Math.floor(Date.now() / 1000),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: { object: "subscription", items: { object: "list", data: [] }, ...subscription } },
    });

  const deliver = (
    payload: string,
    signature = signer.webhooks.generateTestHeaderString({ payload, secret: stripeTestKeys.STRIPE_WEBHOOK_SECRET }),
  ) =>
    ctx.app.inject({
      method: "POST",
      url: "/api/stripe/webhook",
      // As Stripe sends it: no Origin, no Sec-Fetch-Site, no cookie.
      headers: {
        "content-type": "application/json; charset=utf-8",
        "stripe-signature": signature,
        "user-agent": "Stripe/1.0",
      },
      payload,
    });

  it("GET /api/billing/config answers the publishable key, never a secret", async () => {
    const response = await apiClient(ctx.app).get("/api/billing/config");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ stripePublishableKey: "pk_test_tendwell_stand_in" });
    expect(response.text).not.toMatch(/sk_test|whsec_/);
  });

  it("the pages' CSP admits Stripe's script, frames and API, and nothing else new", async () => {
    const policy = csp((await apiClient(ctx.app).get("/robots.txt")).headers);
    expect(policy).toContain("script-src 'self' https://js.stripe.com;");
    expect(policy).toContain("frame-src 'self' https://js.stripe.com https://hooks.stripe.com");
    expect(policy).toContain("connect-src 'self' https://api.stripe.com");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'self';");
  });

  it("S-API-07 S-PAY-10 create-subscription-setup makes the customer and a 14-day card trial on the plan's price, answers the setup intent's client secret and sets an HttpOnly setup cookie", async () => {
    const browser = apiClient(ctx.app, { ip: freshIp() });
    const before = stripeApi.requests.length;
    const response = await startSetup(browser, {
      email: "dana@whitfield.example",
      fullName: "Dana Whitfield",
      plan: "enterprise",
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(["clientSecret"]);
    expect(response.body.clientSecret).toMatch(/^seti_[a-z0-9]+_secret_[a-z0-9]+$/);

    const [customer, subscription, ...rest] = stripeApi.requests.slice(before);
    expect(rest).toEqual([]);
    expect(customer).toMatchObject({
      method: "POST",
      path: "/v1/customers",
      form: { email: "dana@whitfield.example", name: "Dana Whitfield", "metadata[plan]": "enterprise" },
    });
    expect(customer?.headers.authorization).toBe(`Bearer ${stripeTestKeys.STRIPE_SECRET_KEY}`);
    expect(subscription).toMatchObject({
      method: "POST",
      path: "/v1/subscriptions",
      form: {
        "items[0][price]": "price_enterprise_test",
        trial_period_days: "14",
        "payment_settings[save_default_payment_method]": "on_subscription",
        "payment_settings[payment_method_types][0]": "card",
        "trial_settings[end_behavior][missing_payment_method]": "cancel",
        "expand[0]": "pending_setup_intent",
      },
    });
    const stored = [...stripeApi.subscriptions.values()].find(
      (candidate) => candidate.customer === subscription?.form.customer,
    );
    expect(stored?.pending_setup_intent).toBe(response.body.clientSecret.split("_secret_")[0]);

    const cookie = setCookieOf(response.headers, SETUP_COOKIE);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/api;/);
    expect(cookie).not.toMatch(/Secure/); // plain HTTP here; behind HTTPS it is Secure, as the session cookie
    const token = /^[^=]+=([^;]+)/.exec(cookie ?? "")?.[1] ?? "";
    const [row] = await ctx.database.db
      .select()
      .from(billingSetups)
      .where(eq(billingSetups.stripeSubscriptionId, stored?.id ?? ""));
    expect(row).toMatchObject({ email: "dana@whitfield.example", plan: "enterprise", claimedAt: null });
    expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
  });

  const tokenOf = (headers: Record<string, unknown>) =>
    /^[^=]+=([^;]+)/.exec(setCookieOf(headers, SETUP_COOKIE) ?? "")?.[1] ?? "";
  /** The stand-in's subscription whose setup intent a client secret belongs to. */
  const subscriptionOf = (clientSecret: string) =>
    [...stripeApi.subscriptions.values()].find((sub) => clientSecret.startsWith(`${sub.pending_setup_intent}_secret_`));

  it("S-API-07 a browser back at the payment step with the same details gets its open setup again: no second customer, and it registers", async () => {
    const browser = apiClient(ctx.app, { ip: freshIp() });
    const body = registration({ subscriptionPlan: "starter" });
    const input = { email: body.email, fullName: body.fullName, plan: "starter" };
    const first = await startSetup(browser, input);
    expect(first.status).toBe(200);
    const before = stripeApi.requests.length;

    const again = await startSetup(browser, input);
    expect(again.status).toBe(200);
    expect(again.body.clientSecret).toBe(first.body.clientSecret);
    expect(tokenOf(again.headers)).toBe(tokenOf(first.headers));
    const calls = stripeApi.requests.slice(before);
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      `GET /v1/subscriptions/${subscriptionOf(first.body.clientSecret)?.id}`,
    ]);
    expect(calls[0]?.form).toEqual({ "expand[0]": "pending_setup_intent" });
    const rows = await ctx.database.db.select().from(billingSetups).where(eq(billingSetups.email, body.email));
    expect(rows).toHaveLength(1);

    expect((await browser.post("/api/auth/register", body)).status).toBe(201);
  });

  it("S-API-07 other details, or a setup Stripe has closed, replace the browser's earlier setup: its customer is deleted and its cookie registers no more", async () => {
    const browser = apiClient(ctx.app, { ip: freshIp() });
    const body = registration({ subscriptionPlan: "professional" });
    const input = { email: body.email, fullName: body.fullName, plan: "starter" };
    const starter = await startSetup(browser, input);
    const starterToken = tokenOf(starter.headers);
    const starterSubscription = subscriptionOf(starter.body.clientSecret);

    // Back to the plans: another plan is another subscription, and the first customer goes.
    const before = stripeApi.requests.length;
    const professional = await startSetup(browser, { ...input, plan: "professional" });
    expect(professional.status).toBe(200);
    expect(professional.body.clientSecret).not.toBe(starter.body.clientSecret);
    expect(stripeApi.requests.slice(before).map((call) => `${call.method} ${call.path}`)).toEqual([
      `DELETE /v1/customers/${starterSubscription?.customer}`,
      "POST /v1/customers",
      "POST /v1/subscriptions",
    ]);
    expect(starterSubscription?.status).toBe("canceled");
    const stale = apiClient(ctx.app, { ip: freshIp() });
    const refused = await stale.request(
      "POST",
      "/api/auth/register",
      { ...body, subscriptionPlan: "starter" },
      {
        cookie: `${SETUP_COOKIE}=${starterToken}`,
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(setupNotFoundMessage);

    // Another name is another customer too.
    const renamed = await startSetup(browser, { ...input, plan: "professional", fullName: "Dana W. Whitfield" });
    expect(subscriptionOf(professional.body.clientSecret)?.status).toBe("canceled");

    // A card setup Stripe has closed (here: its intent succeeded) is not answered again.
    const intentId = renamed.body.clientSecret.split("_secret_")[0] ?? "";
    const intent = stripeApi.setupIntents.get(intentId);
    if (!intent) throw new Error("the stand-in has no such setup intent");
    intent.status = "succeeded";
    const fresh = await startSetup(browser, { ...input, plan: "professional", fullName: "Dana W. Whitfield" });
    expect(fresh.status).toBe(200);
    expect(fresh.body.clientSecret).not.toBe(renamed.body.clientSecret);
    const rows = await ctx.database.db.select().from(billingSetups).where(eq(billingSetups.email, body.email));
    expect(rows.map((row) => row.stripeSubscriptionId)).toEqual([subscriptionOf(fresh.body.clientSecret)?.id]);

    // A subscription gone from Stripe (deleted in its dashboard) is no error: a new setup is made.
    const goneId = subscriptionOf(fresh.body.clientSecret)?.id ?? "";
    stripeApi.subscriptions.delete(goneId);
    const afterGone = await startSetup(browser, { ...input, plan: "professional", fullName: "Dana W. Whitfield" });
    expect(afterGone.status).toBe(200);
    expect(afterGone.body.clientSecret).not.toBe(fresh.body.clientSecret);

    const registered = await browser.post("/api/auth/register", { ...body, fullName: "Dana W. Whitfield" });
    expect(registered.status).toBe(201);
    const [firm] = await ctx.database.db.select().from(firms).where(eq(firms.id, registered.body.firm.id));
    expect(firm?.stripeSubscriptionId).toBe(subscriptionOf(afterGone.body.clientSecret)?.id);
  });

  it("S-API-07 refuses a bad email, an unknown plan or an extra field with a 400, before calling Stripe", async () => {
    const browser = apiClient(ctx.app, { ip: freshIp() });
    const before = stripeApi.requests.length;
    const good = { email: "dana@example.com", fullName: "Dana Whitfield", plan: "starter" };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, email: "dana.example.com" }, "Valid email is required"],
      [{ ...good, plan: "platinum" }, "Choose a plan: starter, professional or enterprise"],
      [{ ...good, fullName: "   " }, "Full name is required"],
    ];
    for (const [body, message] of cases) {
      const response = await startSetup(browser, body as typeof good);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(message);
    }
    const extra = await browser.post("/api/create-subscription-setup", { ...good, priceId: "price_free" });
    expect(extra.status).toBe(400);
    expect(extra.body.code).toBe("VALIDATION_FAILED");
    const crossSite = await browser.request("POST", "/api/create-subscription-setup", good, {
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
    });
    expect(crossSite.status).toBe(403);
    expect(stripeApi.requests.length).toBe(before);
  });

  it("S-API-07 rate-limits the payment step to 10 calls per address in 10 minutes (429 with Retry-After)", async () => {
    const ip = freshIp();
    const browser = apiClient(ctx.app, { ip });
    const input = { email: "flood@example.com", fullName: "Flo Od", plan: "starter" };
    for (let n = 1; n <= 10; n++) expect((await startSetup(browser, input)).status).toBe(200);
    const before = stripeApi.requests.length;
    const refused = await startSetup(browser, input);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: "RATE_LIMITED",
      message: "Too many requests. Please try again in 10 minutes.",
    });
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(500);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(stripeApi.requests.length).toBe(before);
    // Other addresses, and the rest of the API for this one, are not affected.
    expect((await startSetup(apiClient(ctx.app, { ip: freshIp() }), input)).status).toBe(200);
    expect((await browser.get("/api/billing/config")).status).toBe(200);
  });

  it("S-ERR-06 maps Stripe's failures: a declined card or refused request is a 400 with Stripe's message; Stripe failing or unreachable, or no setup intent to confirm, is a 503", async () => {
    const input = { email: "dana@example.com", fullName: "Dana Whitfield", plan: "starter" };
    const setupsBefore = (await ctx.database.db.select({ n: count() }).from(billingSetups))[0]?.n;
    try {
      stripeApi.fail("card_declined");
      const declined = await startSetup(apiClient(ctx.app, { ip: freshIp() }), input);
      expect(declined.status).toBe(400);
      expect(declined.body).toEqual({ code: "BAD_REQUEST", message: "Your card was declined." });

      stripeApi.fail("invalid_request");
      const invalid = await startSetup(apiClient(ctx.app, { ip: freshIp() }), input);
      expect(invalid.status).toBe(400);
      expect(invalid.body.message).toBe("Invalid email address: nope");

      stripeApi.fail("server_error");
      const failing = await startSetup(apiClient(ctx.app, { ip: freshIp() }), input);
      expect(failing.status).toBe(503);
      expect(failing.body).toEqual({ code: "SERVICE_UNAVAILABLE", message: providerUnavailableMessage });

      stripeApi.fail("connection_reset");
      const unreachable = await startSetup(apiClient(ctx.app, { ip: freshIp() }), input);
      expect(unreachable.status).toBe(503);
      expect(unreachable.body.message).toBe(providerUnavailableMessage);
      expect(setCookieOf(unreachable.headers, SETUP_COOKIE)).toBeUndefined();

      // S-ERR-06: a subscription without a setup intent leaves nothing for the card form to confirm.
      stripeApi.fail("no_setup_intent");
      const noIntent = await startSetup(apiClient(ctx.app, { ip: freshIp() }), input);
      expect(noIntent.status).toBe(503);
      expect(noIntent.body).toEqual({ code: "SERVICE_UNAVAILABLE", message: paymentNotInitializedMessage });
      expect(setCookieOf(noIntent.headers, SETUP_COOKIE)).toBeUndefined();
    } finally {
      stripeApi.fail(null);
    }
    expect((await ctx.database.db.select({ n: count() }).from(billingSetups))[0]?.n).toBe(setupsBefore);
  });

  it("S-PAY-11 S-STATE-04 S-ROLE-18 S-PAY-15 registration links the firm to this browser's setup: super_admin, card billing, trialing, Stripe's trial end; the setup cookie is cleared", async () => {
    const { browser, registered, firm, body } = await onboard("starter");
    expect((await browser.get("/api/auth/me")).body.role).toBe("super_admin");
    const stored = stripeApi.subscriptions.get(firm.stripeSubscriptionId);
    expect(stored?.customer).toBe(firm.stripeCustomerId);
    expect(firm.stripeCustomerId).toMatch(/^cus_/);
    const billing = await browser.get("/api/billing");
    expect(billing.status).toBe(200);
    expect(billing.body).toEqual({
      plan: "starter",
      subscriptionStatus: "trialing",
      trialEndsAt: new Date((stored?.trial_end ?? 0) * 1000).toISOString(),
      cardBilling: true,
    });
    expect(setCookieOf(registered.headers, SETUP_COOKIE)).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    const [setup] = await ctx.database.db
      .select()
      .from(billingSetups)
      .where(eq(billingSetups.stripeSubscriptionId, firm.stripeSubscriptionId));
    expect(setup?.claimedAt).not.toBeNull();
    expect(setup?.firmId).toBe(firm.id);
    const [event] = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.firmId, firm.id), eq(auditEvents.action, "account.registered")));
    expect(event?.after).toMatchObject({
      firm: {
        plan: "starter",
        stripeCustomerId: firm.stripeCustomerId,
        stripeSubscriptionId: firm.stripeSubscriptionId,
      },
      user: { username: body.username },
    });
  });

  it("registration matches the setup's email ignoring case", async () => {
    const browser = apiClient(ctx.app, { ip: freshIp() });
    const body = registration();
    expect(
      (await startSetup(browser, { email: body.email.toUpperCase(), fullName: body.fullName, plan: "professional" }))
        .status,
    ).toBe(200);
    expect((await browser.post("/api/auth/register", body)).status).toBe(201);
  });

  it("registration is refused without a setup, with another browser's setup, or for another email or plan; nothing is created", async () => {
    const firmsBefore = (await ctx.database.db.select({ n: count() }).from(firms))[0]?.n;
    const body = registration();
    const refusedPlainly = await apiClient(ctx.app).post("/api/auth/register", body);
    expect(refusedPlainly.status).toBe(400);
    expect(refusedPlainly.body).toEqual({ code: "BAD_REQUEST", message: setupNotFoundMessage });

    // Someone else's setup cookie, for their email: not this registration's.
    const other = apiClient(ctx.app, { ip: freshIp() });
    const otherSetup = await startSetup(other, {
      email: "someone.else@example.com",
      fullName: "Some One",
      plan: "professional",
    });
    const foreignToken = /^[^=]+=([^;]+)/.exec(setCookieOf(otherSetup.headers, SETUP_COOKIE) ?? "")?.[1] ?? "";
    const withForeign = await apiClient(ctx.app).request("POST", "/api/auth/register", body, {
      cookie: `${SETUP_COOKIE}=${foreignToken}`,
    });
    expect(withForeign.status).toBe(400);
    expect(withForeign.body.message).toBe(setupNotFoundMessage);
    // A made-up token.
    const forged = await apiClient(ctx.app).request("POST", "/api/auth/register", body, {
      cookie: `${SETUP_COOKIE}=${randomBytes(32).toString("base64url")}`,
    });
    expect(forged.status).toBe(400);

    // This browser's own setup, but for another plan.
    const browser = apiClient(ctx.app, { ip: freshIp() });
    await startSetup(browser, { email: body.email, fullName: body.fullName, plan: "starter" });
    const otherPlan = await browser.post("/api/auth/register", body);
    expect(otherPlan.status).toBe(400);
    expect(otherPlan.body.message).toBe(setupNotFoundMessage);

    expect((await ctx.database.db.select({ n: count() }).from(firms))[0]?.n).toBe(firmsBefore);
    // The foreign setup is still there for its own browser.
    expect((await other.post("/api/auth/register", registration({ email: "someone.else@example.com" }))).status).toBe(
      201,
    );
  });

  it("one setup links one firm: a second registration with the same cookie is refused, and so is an expired one", async () => {
    const browser = apiClient(ctx.app, { ip: freshIp() });
    const body = registration();
    const setup = await startSetup(browser, { email: body.email, fullName: body.fullName, plan: "professional" });
    const token = /^[^=]+=([^;]+)/.exec(setCookieOf(setup.headers, SETUP_COOKIE) ?? "")?.[1] ?? "";
    expect((await browser.post("/api/auth/register", body)).status).toBe(201);
    const again = await apiClient(ctx.app).request(
      "POST",
      "/api/auth/register",
      { ...body, username: uniqueName("second."), email: body.email.replace("@", "+2@") },
      { cookie: `${SETUP_COOKIE}=${token}` },
    );
    expect(again.status).toBe(400);
    const sameEmail = await apiClient(ctx.app).request(
      "POST",
      "/api/auth/register",
      { ...body, username: uniqueName("third.") },
      { cookie: `${SETUP_COOKIE}=${token}` },
    );
    expect(sameEmail.status).toBe(400);
    expect(sameEmail.body.message).toBe(setupNotFoundMessage);

    const late = apiClient(ctx.app, { ip: freshIp() });
    const lateBody = registration();
    await startSetup(late, { email: lateBody.email, fullName: lateBody.fullName, plan: "professional" });
    await ctx.database.db
      .update(billingSetups)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(billingSetups.email, lateBody.email));
    const expired = await late.post("/api/auth/register", lateBody);
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe(setupNotFoundMessage);
  });

  it("two registrations racing with one setup cookie: exactly one firm is linked, the other is a 4xx", async () => {
    const browser = apiClient(ctx.app, { ip: freshIp() });
    const body = registration();
    await startSetup(browser, { email: body.email, fullName: body.fullName, plan: "professional" });
    const answers = await Promise.all([
      browser.post("/api/auth/register", body),
      browser.post("/api/auth/register", { ...body, username: uniqueName("racer.") }),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses[0]).toBe(201);
    expect(statuses[1]).toBeGreaterThanOrEqual(400);
    expect(statuses[1]).toBeLessThan(500);
    const [setup] = await ctx.database.db.select().from(billingSetups).where(eq(billingSetups.email, body.email));
    const linked = await ctx.database.db
      .select({ n: count() })
      .from(firms)
      .where(eq(firms.stripeSubscriptionId, setup?.stripeSubscriptionId ?? ""));
    expect(linked[0]?.n).toBe(1);
  });

  it("registration is a 503 when Stripe cannot be reached, and creates nothing", async () => {
    const browser = apiClient(ctx.app, { ip: freshIp() });
    const body = registration();
    await startSetup(browser, { email: body.email, fullName: body.fullName, plan: "professional" });
    stripeApi.fail("connection_reset");
    try {
      const response = await browser.post("/api/auth/register", body);
      expect(response.status).toBe(503);
    } finally {
      stripeApi.fail(null);
    }
    expect((await browser.post("/api/auth/register", body)).status).toBe(201);
  });

  it("the webhook moves the firm trialing → active → past_due → canceled, each with a system audit event", async () => {
    const { firm } = await onboard();
    const subscription = {
      id: firm.stripeSubscriptionId,
      customer: firm.stripeCustomerId,
      trial_end: null as number | null,
    };
    const trialEnd = Math.floor(Date.now() / 1000) + 3 * 86_400;
    const steps: [string, string, number | null][] = [
      ["customer.subscription.updated", "trialing", trialEnd],
      ["customer.subscription.updated", "active", trialEnd],
      ["customer.subscription.updated", "past_due", trialEnd],
      ["customer.subscription.deleted", "canceled", trialEnd],
    ];
    for (const [type, status, trial] of steps) {
      const response = await deliver(subscriptionEvent(type, { ...subscription, status, trial_end: trial }));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ received: true, outcome: "applied" });
      const row = await firmRow(firm.id);
      expect(row.subscriptionStatus).toBe(status);
      expect(row.trialEndsAt.toISOString()).toBe(new Date(trialEnd * 1000).toISOString());
    }
    const events = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.firmId, firm.id), eq(auditEvents.action, "billing.subscription_updated")))
      .orderBy(auditEvents.seq);
    // The first step moved only the trial end; each later one the status.
    expect(events.map((event) => (event.after as { subscriptionStatus: string }).subscriptionStatus)).toEqual([
      "trialing",
      "active",
      "past_due",
      "canceled",
    ]);
    for (const event of events) {
      expect(event.actorUserId).toBeNull();
      expect(event.ip).toBeNull();
    }
  });

  it("a forged signature or a stale timestamp is a 400 and changes nothing", async () => {
    const { firm } = await onboard();
    const payload = subscriptionEvent("customer.subscription.updated", {
      id: firm.stripeSubscriptionId,
      customer: firm.stripeCustomerId,
      status: "active",
      trial_end: null,
    });
    const forged = await deliver(
      payload,
      signer.webhooks.generateTestHeaderString({ payload, secret: "whsec_someone_else" }),
    );
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ code: "BAD_REQUEST" });
    expect(forged.json().message).toMatch(/^The webhook signature could not be verified/);

    const tampered = await deliver(
      payload.replace('"active"', '"canceled"'),
      signer.webhooks.generateTestHeaderString({ payload, secret: stripeTestKeys.STRIPE_WEBHOOK_SECRET }),
    );
    expect(tampered.statusCode).toBe(400);

    const stale = await deliver(
      payload,
      signer.webhooks.generateTestHeaderString({
        payload,
        secret: stripeTestKeys.STRIPE_WEBHOOK_SECRET,
        timestamp: Math.floor(Date.now() / 1000) - 301,
      }),
    );
    expect(stale.statusCode).toBe(400);
    expect(stale.json().message).toMatch(/tolerance/i);

    const unsigned = await ctx.app.inject({
      method: "POST",
      url: "/api/stripe/webhook",
      headers: { "content-type": "application/json" },
      payload,
    });
    expect(unsigned.statusCode).toBe(400);
    const notJson = await ctx.app.inject({
      method: "POST",
      url: "/api/stripe/webhook",
      headers: { "content-type": "text/plain", "stripe-signature": "t=1,v1=00" },
      payload,
    });
    expect(notJson.statusCode).toBe(415);

    expect((await firmRow(firm.id)).subscriptionStatus).toBe("trialing");
    const recorded = await ctx.database.db
      .select()
      .from(stripeEvents)
      .where(eq(stripeEvents.stripeSubscriptionId, firm.stripeSubscriptionId));
    expect(recorded).toEqual([]);
  });

  it("a replayed event is acknowledged and not applied twice; an older event never overwrites a newer one", async () => {
    const { firm } = await onboard();
    const subscription = { id: firm.stripeSubscriptionId, customer: firm.stripeCustomerId, trial_end: null };
    const now = Math.floor(Date.now() / 1000);
    const active = subscriptionEvent(
      "customer.subscription.updated",
      { ...subscription, status: "active" },
      { created: now },
    );
    expect((await deliver(active)).json()).toEqual({ received: true, outcome: "applied" });
    const pastDue = subscriptionEvent(
      "customer.subscription.updated",
      { ...subscription, status: "past_due" },
      { created: now + 5 },
    );
    expect((await deliver(pastDue)).json()).toEqual({ received: true, outcome: "applied" });

    // The first event again, freshly signed (a retry or a replay): acknowledged, not applied.
    const replay = await deliver(active);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, outcome: "duplicate" });
    expect((await firmRow(firm.id)).subscriptionStatus).toBe("past_due");

    // A different event created before the last applied one arrives late: recorded, not applied.
    const late = subscriptionEvent(
      "customer.subscription.updated",
      { ...subscription, status: "active" },
      { created: now + 1 },
    );
    expect((await deliver(late)).json()).toEqual({ received: true, outcome: "stale" });
    expect((await firmRow(firm.id)).subscriptionStatus).toBe("past_due");

    const audited = await ctx.database.db
      .select({ n: count() })
      .from(auditEvents)
      .where(and(eq(auditEvents.firmId, firm.id), eq(auditEvents.action, "billing.subscription_updated")));
    expect(audited[0]?.n).toBe(2);
  });

  it("an event for an unknown subscription, or of a type we do not act on, is acknowledged and changes nothing", async () => {
    const { firm } = await onboard();
    const before = await firmRow(firm.id);
    const unknown = await deliver(
      subscriptionEvent("customer.subscription.updated", {
        id: "sub_nobody",
        customer: "cus_nobody",
        status: "canceled",
        trial_end: null,
      }),
    );
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ received: true, outcome: "ignored" });
    const willEnd = await deliver(
      subscriptionEvent("customer.subscription.trial_will_end", {
        id: firm.stripeSubscriptionId,
        customer: firm.stripeCustomerId,
        status: "trialing",
        trial_end: Math.floor(Date.now() / 1000) + 3 * 86_400,
      }),
    );
    expect(willEnd.json()).toEqual({ received: true, outcome: "ignored" });
    expect(await firmRow(firm.id)).toEqual(before);
    const [latest] = await ctx.database.db.select().from(stripeEvents).orderBy(desc(stripeEvents.receivedAt)).limit(1);
    expect(latest).toMatchObject({ type: "customer.subscription.trial_will_end", outcome: "ignored" });
  });

  it("the webhook needs no same-origin headers and ignores a session cookie", async () => {
    const { firm, browser } = await onboard();
    const payload = subscriptionEvent("customer.subscription.updated", {
      id: firm.stripeSubscriptionId,
      customer: firm.stripeCustomerId,
      status: "active",
      trial_end: null,
    });
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/stripe/webhook",
      headers: {
        "content-type": "application/json",
        "stripe-signature": signer.webhooks.generateTestHeaderString({
          payload,
          secret: stripeTestKeys.STRIPE_WEBHOOK_SECRET,
        }),
        origin: "https://stripe.com",
        "sec-fetch-site": "cross-site",
        cookie: `tendwell_session=${browser.sessionToken()}`,
      },
      payload,
    });
    expect(response.statusCode).toBe(200);
    const [event] = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.firmId, firm.id), eq(auditEvents.action, "billing.subscription_updated")));
    expect(event?.actorUserId).toBeNull();
  });

  it("S-ROLE-17 changing the plan moves the Stripe subscription's item to the new price; Stripe down is a 503 and no change", async () => {
    const { browser, firm } = await onboard("starter");
    const stored = stripeApi.subscriptions.get(firm.stripeSubscriptionId);
    const itemId = stored?.items.data[0]?.id;
    const before = stripeApi.requests.length;
    const changed = await browser.put("/api/billing/plan", { plan: "enterprise" });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ plan: "enterprise", cardBilling: true, subscriptionStatus: "trialing" });
    const update = stripeApi.requests.slice(before).find((request) => request.method === "POST");
    expect(update).toMatchObject({
      path: `/v1/subscriptions/${firm.stripeSubscriptionId}`,
      form: { "items[0][id]": itemId, "items[0][price]": "price_enterprise_test", "metadata[plan]": "enterprise" },
    });
    expect(stored?.items.data[0]?.price.id).toBe("price_enterprise_test");

    stripeApi.fail("connection_reset");
    try {
      const refused = await browser.put("/api/billing/plan", { plan: "professional" });
      expect(refused.status).toBe(503);
    } finally {
      stripeApi.fail(null);
    }
    expect((await browser.get("/api/billing")).body.plan).toBe("enterprise");

    const admin = await signIn(ctx.app, (await seedFirm(ctx.database.db, "Other")).users.admin);
    expect((await admin.put("/api/billing/plan", { plan: "starter" })).status).toBe(403);
  });
});
