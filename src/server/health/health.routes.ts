import type { FastifyInstance } from "fastify";
import type pg from "pg";
import { AppError } from "../errors";

export function healthRoutes(app: FastifyInstance, options: { pool: pg.Pool }) {
  app.get("/api/health", { config: { access: "public" } }, async () => {
    try {
      await options.pool.query("select 1");
    } catch (error) {
      app.log.warn({ err: error }, "health check: database unreachable");
      throw new AppError("SERVICE_UNAVAILABLE", "The database is unreachable");
    }
    return { status: "ok", database: "ok" };
  });
}
