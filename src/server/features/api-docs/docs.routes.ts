import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { projectPaths } from "../../platform/paths";
import { buildOpenApiDocument } from "./openapi";

/** GET /api/docs: the OpenAPI description of the API, built once every route is registered. */
export function docsRoutes(app: FastifyInstance) {
  let document: ReturnType<typeof buildOpenApiDocument> | undefined;
  app.get(
    "/api/docs",
    {
      config: { access: "public" },
      schema: {
        summary: "This description of the API (OpenAPI 3.1)",
        response: { 200: z.looseObject({ openapi: z.literal("3.1.0") }) },
      },
    },
    async () => {
      if (!document) {
        const { version } = JSON.parse(fs.readFileSync(path.join(projectPaths.root, "package.json"), "utf8"));
        document = buildOpenApiDocument(app.apiRoutes, version);
      }
      return document;
    },
  );
}
