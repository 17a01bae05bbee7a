import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../errors";
import { isApiRequest } from "../http";

const immutable = "public, max-age=31536000, immutable";

/** A path as a message names it: a hostile 5,000-character one is cut short. */
const shownPath = (pathname: string) => (pathname.length > 200 ? `${pathname.slice(0, 200)}…` : pathname);

/**
 * Serves the built React app: hashed files under /assets/ are cached for a year; every other
 * non-API path (except the server-rendered public pages of src/server/site, decision 0022) gets index.html (revalidated on every load) so the client router can take over, including
 * its own 404 page.
 */
export async function webRoutes(app: FastifyInstance, options: { clientDir: string }) {
  const indexFile = path.join(options.clientDir, "index.html");
  const built = fs.existsSync(indexFile);

  const sendIndex = (reply: FastifyReply) => reply.header("cache-control", "no-cache").sendFile("index.html");

  if (built) {
    await app.register(fastifyStatic, {
      root: options.clientDir,
      index: false,
      // A route for each file of the build, found at start (the build does not change under a
      // running server): any other address never reaches the file system, which answers a name
      // longer than it allows with a 403; it goes to the handler below like every unknown path.
      wildcard: false,
      // scripts/precompress.ts writes .br and .gz copies at build time (decision 0022).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const fromAssets = path.relative(options.clientDir, filePath).startsWith(`assets${path.sep}`);
        res.header("cache-control", fromAssets ? immutable : "no-cache");
      },
    });
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = shownPath(request.url.split("?")[0] ?? "/");
    if (isApiRequest(request)) throw new AppError("NOT_FOUND", `No API route ${request.method} ${pathname}`);
    const wantsPage = request.method === "GET" || request.method === "HEAD";
    if (!wantsPage || pathname.startsWith("/assets/")) {
      throw new AppError("NOT_FOUND", `Not found: ${pathname}`);
    }
    if (!built) {
      return reply
        .status(503)
        .type("text/plain; charset=utf-8")
        .send("The web app is not built yet. Run `npm run build` (npm start does this for you).");
    }
    return sendIndex(reply);
  });
}
