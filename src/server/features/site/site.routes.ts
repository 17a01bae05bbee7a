import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { landingHead } from "../../../site/landing/landing-meta";
import type { SiteData } from "../../../site/pages";
import type { SiteHead } from "../../../site/site-data";
import type { Config } from "../../platform/config";
import type { Database } from "../../platform/db/database";
import { projectPaths } from "../../platform/paths";
import { findSession, SESSION_COOKIE } from "../auth/sessions";
import { listBlogPosts } from "../blog/blog.service";
import { devPreamble, devPreamblePath, loadSiteAssets } from "./site-assets";
import { renderSiteDocument } from "./site-document";

/** The public origin for absolute URLs: APP_ORIGIN when set, else the origin the request came to. */
export function publicOrigin(request: FastifyRequest, config: Config): string {
  return (config.appOrigin ?? `${request.protocol}://${request.host}`).replace(/\/+$/, "");
}

/** The public pages in the sitemap besides the blog's posts. */
const sitemapPaths = ["/", "/blog", "/signup", "/login"] as const;

/** Signed-in paths (S-GUARD-05..12) crawlers are asked to leave alone, with the API and onboarding. */
const disallowedPaths = [
  "/api/",
  "/dashboard",
  "/clients",
  "/client/",
  "/tasks",
  "/reports",
  "/users",
  "/settings",
  "/onboarding/",
] as const;

export type SitePageSender = (
  request: FastifyRequest,
  reply: FastifyReply,
  page: { data: SiteData; head: SiteHead; status?: number },
) => FastifyReply;

declare module "fastify" {
  interface FastifyInstance {
    /** Sends a registered public page as complete, server-rendered HTML (decision 0022). */
    sendSitePage: SitePageSender;
  }
}

const escapeXml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The server-rendered public site (decision 0022): / for visitors (signed-in users get the app,
 * whose Dashboard is /, docs/design/signed-in-app.md), sitemap.xml and robots.txt. Other public pages (the blog)
 * register their routes with app.sendSitePage.
 */
export async function siteRoutes(app: FastifyInstance, options: { db: Database; config: Config; clientDir: string }) {
  const { db, config, clientDir } = options;
  const dev = config.env === "development";
  const assets = loadSiteAssets(clientDir, { dev, projectRoot: projectPaths.root });
  const appBuilt = fs.existsSync(path.join(clientDir, "index.html"));

  const sendSitePage: SitePageSender = (request, reply, page) => {
    const html = renderSiteDocument({
      data: page.data,
      head: page.head,
      origin: publicOrigin(request, config),
      assets,
    });
    return reply
      .status(page.status ?? 200)
      .header("cache-control", "no-cache")
      .type("text/html; charset=utf-8")
      .send(html);
  };
  app.decorate("sendSitePage", sendSitePage);

  const signedIn = async (request: FastifyRequest) => {
    const token = request.cookies[SESSION_COOKIE];
    return token ? (await findSession(db, token, config)) !== undefined : false;
  };

  app.get("/", async (request, reply) => {
    // The same URL answers differently with and without a session: caches must keep both apart.
    reply.header("vary", "cookie");
    if (await signedIn(request)) {
      if (appBuilt) return reply.header("cache-control", "no-cache").sendFile("index.html");
      // `npm run dev` without a build: the app itself is served by Vite.
      return reply.header("cache-control", "no-cache").redirect("/dashboard");
    }
    return sendSitePage(request, reply, { data: { page: "landing", props: {} }, head: landingHead });
  });

  app.get("/sitemap.xml", async (request, reply) => {
    const origin = publicOrigin(request, config);
    const posts = await listBlogPosts(db);
    const urls = [
      ...sitemapPaths.map((pagePath) => `<url><loc>${escapeXml(`${origin}${pagePath}`)}</loc></url>`),
      ...posts.map(
        (post) =>
          `<url><loc>${escapeXml(`${origin}/blog/${post.slug}`)}</loc><lastmod>${post.updatedAt.slice(0, 10)}</lastmod></url>`,
      ),
    ];
    return reply
      .header("cache-control", "no-cache")
      .type("application/xml; charset=utf-8")
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`,
      );
  });

  app.get("/robots.txt", async (request, reply) => {
    const origin = publicOrigin(request, config);
    const lines = [
      "User-agent: *",
      ...sitemapPaths.map((pagePath) => `Allow: ${pagePath}`),
      ...disallowedPaths.map((pagePath) => `Disallow: ${pagePath}`),
      "",
      `Sitemap: ${origin}/sitemap.xml`,
    ];
    return reply
      .header("cache-control", "no-cache")
      .type("text/plain; charset=utf-8")
      .send(`${lines.join("\n")}\n`);
  });

  if (dev) {
    app.get(devPreamblePath, async (_request, reply) =>
      reply.header("cache-control", "no-cache").type("text/javascript; charset=utf-8").send(devPreamble),
    );
  }
}
