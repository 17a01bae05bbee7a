import type { FastifyInstance } from "fastify";
import type pg from "pg";
import { z } from "zod";
import { DATABASE_RETRY_AFTER_SECONDS, type DatabaseAvailability } from "../db/availability";
import { NamedStatement, runStatement } from "../db/named-statement";
import { AppError } from "../errors";
import type { ZodTypeProvider } from "../http";

const healthSchema = z.object({ status: z.literal("ok"), database: z.literal("ok") });
// Named, so PostgreSQL parses it once per connection: load balancers ask often.
const healthCheck = new NamedStatement("health_check", "select 1", "array");

/** Where load balancers ask; the general rate limit does not count requests to it (app.ts). */
export const HEALTH_PATH = "/api/health";

export function healthRoutes(app: FastifyInstance, options: { pool: pg.Pool; availability: DatabaseAvailability }) {
  const { pool, availability } = options;
  app.withTypeProvider<ZodTypeProvider>().get(
    HEALTH_PATH,
    {
      config: { access: "public" },
      schema: {
        summary: "Whether the app and its database answer (503 when the database does not)",
        response: { 200: healthSchema },
      },
    },
    async () => {
      try {
        // It reads no table, so any pooled connection will do, whatever firm it last served.
        await runStatement(pool, healthCheck, []);
      } catch (error) {
        // An outage (refused, gone, timed out) is logged once by the tracker, not per check;
        // anything else (a missing database, a refused password) is worth a line each time.
        if (!availability.reportFailure(error)) app.log.warn({ err: error }, "health check: the database query failed");
        throw new AppError("SERVICE_UNAVAILABLE", "The database is unreachable", {
          retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
          cause: error,
        });
      }
      return { status: "ok" as const, database: "ok" as const };
    },
  );
}
