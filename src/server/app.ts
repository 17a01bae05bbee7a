import { randomUUID } from "node:crypto";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { docsRoutes } from "./features/api-docs/docs.routes";
import { assignmentsRoutes } from "./features/assignments/assignments.routes";
import { auditRoutes } from "./features/audit-trail/audit-trail.routes";
import { registerAccessControl } from "./features/auth/access-control";
import { authRoutes } from "./features/auth/auth.routes";
import { billingRoutes } from "./features/billing/billing.routes";
import { createStripeClient } from "./features/billing/stripe";
import { blogRoutes } from "./features/blog/blog.routes";
import { blogImagesRoutes } from "./features/blog/blog-images.routes";
import { blogPagesRoutes } from "./features/blog/blog-pages.routes";
import { calendarFeedRoutes } from "./features/calendar-feed/calendar-feed.routes";
import { clientImportRoutes } from "./features/client-import/client-import.routes";
import { clientsRoutes } from "./features/clients/clients.routes";
import { contactsRoutes } from "./features/contacts/contacts.routes";
import { dashboardRoutes } from "./features/dashboard/dashboard.routes";
import { dueDatesRoutes } from "./features/due-dates/due-dates.routes";
import { firmRoutes } from "./features/firm/firm.routes";
import { mailOutboxRoutes } from "./features/mail-outbox/mail-outbox.routes";
import { mfaRoutes } from "./features/mfa/mfa.routes";
import { notificationsRoutes } from "./features/notifications/notifications.routes";
import { reportsRoutes } from "./features/reports/reports.routes";
import { signupRoutes } from "./features/signup/signup.routes";
import { siteRoutes } from "./features/site/site.routes";
import { tasksRoutes } from "./features/tasks/tasks.routes";
import { templatesRoutes } from "./features/templates/templates.routes";
import { usersRoutes } from "./features/users/users.routes";
import { compressAnswer } from "./platform/compression";
import type { Config } from "./platform/config";
import { DRAIN_QUIET_MS, trackConnections } from "./platform/connection-drain";
import { watchDatabaseAvailability } from "./platform/db/availability";
import type { DatabaseHandle } from "./platform/db/database";
import { AppError, answerClientError, registerErrorHandler, sendFrameworkError } from "./platform/errors";
import { HEALTH_PATH, healthRoutes } from "./platform/health/health.routes";
import { answerSerializerCompiler, isApiRequest, unacceptableInput, validatorCompiler } from "./platform/http";
import type { JobQueue } from "./platform/jobs/job-queue";
import { createLogger } from "./platform/logger";
import { projectPaths } from "./platform/paths";
import { createRateLimits, generalApiLimit } from "./platform/rate-limit/rate-limit";
import { apiSecurityHeaders, pageSecurityHeaders } from "./platform/security-headers";
import { webRoutes } from "./platform/web/web.routes";
import { registerIdempotency } from "./tenancy/idempotency";

export type AppOptions = {
  config: Config;
  database: DatabaseHandle;
  /** Where the built React app lives; defaults to dist/client. */
  clientDir?: string;
  /** Defaults to createLogger(config); main passes the one it already uses. */
  logger?: FastifyServerOptions["loggerInstance"];
  /** The job queue, for routes that queue work in their own transaction (a client import's commit). */
  jobs?: JobQueue;
  /** The moment a request is judged at, where the answer depends on it; the wall clock unless a test fixes it. */
  clock?: () => Date;
};

/** Builds the whole HTTP app without listening, so tests drive exactly what production runs. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    loggerInstance: options.logger ?? createLogger(config),
    genReqId: () => randomUUID(),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // A whole request (headers and body) must arrive within 30 s, so a client trickling its
    // body cannot hold a connection, or a shutdown, open forever.
    requestTimeout: 30_000,
    // Our own hook answers while closing, in the JSON error convention.
    return503OnClosing: false,
    frameworkErrors: sendFrameworkError,
    clientErrorHandler: answerClientError,
  });

  // Every answer's frame, in one hook: its request id, the security headers (worked out once at
  // boot: a page's, or the API's, which include no-store: an API answer holds a firm's data, and
  // no browser or proxy may keep a copy), while closing a 503 for any request that still arrives,
  // a 415 for a compressed request body, and for an API request the general rate limit (before
  // the session lookup, so a refused request costs no database work). The health check at its
  // own address is not counted: balancers and orchestrators probe it from a few addresses, with
  // Redis counting for every instance at once, and a 429 there would take healthy instances out
  // of service (decision 0006).
  const pageHeaders = pageSecurityHeaders(config);
  const rateLimits = createRateLimits(config, app.log);
  app.addHook("onClose", async () => rateLimits.close());
  const apiLimit = generalApiLimit(rateLimits, config);
  let closing = false;
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    const api = isApiRequest(request);
    reply.headers(api ? apiSecurityHeaders : pageHeaders);
    const bodyEncoding = request.headers["content-encoding"];
    if (closing) {
      done(new AppError("SERVICE_UNAVAILABLE", "The server is shutting down. Please try again in a moment."));
    } else if (bodyEncoding !== undefined && bodyEncoding.toLowerCase() !== "identity") {
      // Request bodies are plain JSON (decision 0043): a compressed one is refused, not misread.
      done(
        new AppError(
          "UNSUPPORTED_MEDIA_TYPE",
          `Compressed request bodies are not accepted (Content-Encoding: ${bodyEncoding})`,
        ),
      );
    } else if (api && request.url !== HEALTH_PATH) {
      apiLimit(request, reply, done);
    } else {
      done();
    }
  });
  // While closing, answers in flight close their connection, so a keep-alive client cannot hold
  // the shutdown open until its idle timeout; a connection between two requests is closed only
  // once it has been idle for a moment, never as its client writes the next request
  // (platform/connection-drain.ts).
  const connections = trackConnections(app.server);
  app.addHook("preClose", async () => {
    closing = true;
    await connections.drain({
      quietMs: Math.min(DRAIN_QUIET_MS, config.shutdownGraceMs),
      maxMs: config.shutdownGraceMs,
    });
  });
  // The app's one onSend hook: while closing, the answer closes its connection; text answers of
  // 1 KB or more travel compressed when the browser asks (platform/compression.ts, decision 0022).
  app.addHook("onSend", (request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    compressAnswer(request, reply, payload, done);
  });

  // Request bodies are JSON only. text/plain is what a cross-site form can send without a CORS
  // preflight, so refusing it (415) is part of the CSRF defence (decision 0005).
  app.removeContentTypeParser("text/plain");

  // Whether the database answers: one warning when it goes and one when it returns, and a 503
  // with Retry-After for the requests that meet the outage (platform/db/availability).
  const availability = watchDatabaseAvailability({ pool: database.pool, log: app.log });
  app.addHook("onClose", async () => availability.stop());
  registerErrorHandler(app, { availability });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializerCompiler({ checkAnswers: config.env !== "production" }));
  // Refused up front for every route, instead of failing at the database or in a schema.
  app.addHook("preValidation", (request, _reply, done) => {
    const problem = unacceptableInput(request.body) ?? unacceptableInput(request.query);
    done(problem ? new AppError("BAD_REQUEST", problem) : undefined);
  });
  await registerAccessControl(app, { db: database.db, config });
  registerIdempotency(app);
  // Card payments (decision 0025): one Stripe client for the app, only when Stripe is configured.
  const cardBilling = config.stripe ? { config: config.stripe, stripe: createStripeClient(config.stripe) } : undefined;
  healthRoutes(app, { pool: database.pool, availability });
  authRoutes(app, { config });
  // main resolves the key (configured, or kept in the data directory); tests configure one.
  if (!config.mfaKey) throw new Error("config.mfaKey is not set: MFA_ENCRYPTION_KEY, or main's key file");
  mfaRoutes(app, { config, key: config.mfaKey });
  // The feeds' secrets are sealed with the same key as the authenticator apps' (decision 0047).
  calendarFeedRoutes(app, { config, key: config.mfaKey });
  await notificationsRoutes(app, { key: config.mfaKey, clock: options.clock ?? (() => new Date()) });
  signupRoutes(app, { config, cardBilling });
  usersRoutes(app);
  assignmentsRoutes(app);
  clientsRoutes(app);
  await clientImportRoutes(app, { jobs: options.jobs });
  contactsRoutes(app);
  tasksRoutes(app);
  templatesRoutes(app);
  dashboardRoutes(app);
  dueDatesRoutes(app);
  reportsRoutes(app);
  firmRoutes(app);
  auditRoutes(app);
  mailOutboxRoutes(app, { config });
  blogRoutes(app, { db: database.db });
  await billingRoutes(app, { config, cardBilling, rateLimits });
  blogImagesRoutes(app, { imagesDir: projectPaths.blogImages });
  docsRoutes(app);
  const clientDir = options.clientDir ?? projectPaths.clientBuild;
  await siteRoutes(app, { db: database.db, config, clientDir });
  blogPagesRoutes(app, { db: database.db });
  await webRoutes(app, { clientDir });
  return app;
}
