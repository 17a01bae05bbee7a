import fs from "node:fs";
import path from "node:path";
import { brotliDecompressSync } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../../../../tests/api-client";
import { seedFirm, signIn } from "../../../../tests/fixtures";
import { makeTempDir } from "../../../../tests/temp-dir";
import { useTestApp } from "../../../../tests/test-app";
import { socialScreenshot } from "../../../site/landing/screenshots";
import { siteDataId } from "../../../site/site-data";
import { siteAssetsFromManifest } from "./site-assets";
import { renderSiteDocument } from "./site-document";

/** The content of every <meta> with the given name or property. */
function metaContent(html: string, key: string): string | undefined {
  const pattern = new RegExp(`<meta (?:name|property)="${key.replace(/[.:]/g, "\\$&")}" content="([^"]*)">`);
  return pattern.exec(html)?.[1];
}

const jsonLdRecords = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? "") as Record<string, unknown>,
  );

describe("the landing page, rendered on the server", () => {
  const ctx = useTestApp();

  it("S-LAND-01 S-LAND-02: GET / without a cookie is 200 HTML with the landing content", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("no-cache");
    expect(String(response.headers.vary)).toMatch(/cookie/i);
    const html = response.body;
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain("Tendwell");
    expect(html).toContain("Structure That Strengthens Retention");
    expect(html).toContain("No Demo Required");
    expect(html).toContain("Most Popular");
    expect(html).toContain("$1.49 per client");
    expect(html).toContain("about $1.00 per client");
    expect(html).toContain("14-day free trial");
    // The page's data for hydration, as JSON.
    const data = new RegExp(`<script type="application/json" id="${siteDataId}">(.*?)</script>`).exec(html)?.[1];
    expect(JSON.parse(data ?? "")).toEqual({ page: "landing", props: {} });
  });

  it("S-LAND-37 S-LAND-38 S-LAND-39 S-LAND-40 S-LAND-41: title, description, keywords, robots, canonical and social cards", async () => {
    const html = (await ctx.app.inject({ method: "GET", url: "/", headers: { host: "crm.example.com" } })).body;
    expect(html).toMatch(/<title>Tendwell: Structure That Strengthens Retention[^<]*<\/title>/);
    expect(metaContent(html, "description")).toMatch(/client retention software/);
    expect(metaContent(html, "keywords")).toContain("client retention software");
    expect(metaContent(html, "robots")).toBe("index, follow");
    expect(html).toContain('<link rel="canonical" href="http://crm.example.com/">');
    expect(metaContent(html, "og:title")).toMatch(/^Tendwell/);
    expect(metaContent(html, "og:description")).toBeTruthy();
    expect(metaContent(html, "og:image")).toBe("http://crm.example.com/screenshots/dashboard-social.jpg");
    expect(metaContent(html, "og:url")).toBe("http://crm.example.com/");
    expect(metaContent(html, "og:type")).toBe("website");
    expect(metaContent(html, "twitter:card")).toBe("summary_large_image");
    expect(metaContent(html, "twitter:image")).toBe("http://crm.example.com/screenshots/dashboard-social.jpg");
    // The first slide, the largest image of the first screen, is fetched early.
    expect(html).toContain(
      '<link rel="preload" as="image" href="/screenshots/client-management-1280.webp" imagesrcset="/screenshots/client-management-640.webp 640w, /screenshots/client-management-1280.webp 1280w" imagesizes="(min-width: 1024px) 640px, 72vw" fetchpriority="high">',
    );
  });

  it("the committed pictures the head names exist: the link-preview JPEG at 1200 x 630, the preloaded slide as WebP", async () => {
    const publicDir = path.join(process.cwd(), "src", "client", "public");
    const social = await sharp(path.join(publicDir, socialScreenshot.src)).metadata();
    expect([social.format, social.width, social.height]).toEqual(["jpeg", 1200, 630]);
    const slide = await sharp(path.join(publicDir, "screenshots", "client-management-1280.webp")).metadata();
    expect([slide.format, slide.width]).toEqual(["webp", 1280]);
  });

  it("S-LAND-42: the JSON-LD is a SoftwareApplication with a free offer and the 14-day trial", async () => {
    const html = (await ctx.app.inject({ method: "GET", url: "/" })).body;
    const [record, ...others] = jsonLdRecords(html);
    expect(others).toEqual([]);
    expect(record).toMatchObject({
      "@context": "https://schema.org",
      "@type": "SoftwareApplication",
      name: "Tendwell",
      applicationCategory: "BusinessApplication",
      operatingSystem: "Web",
      offers: {
        "@type": "Offer",
        price: "0",
        priceCurrency: "USD",
        eligibleDuration: { "@type": "QuantitativeValue", value: 14, unitCode: "DAY" },
      },
    });
    expect(JSON.stringify(record)).toContain("14-day free trial");
  });

  it("has no inline executable script (the CSP allows script-src 'self' only)", async () => {
    const html = (await ctx.app.inject({ method: "GET", url: "/" })).body;
    for (const match of html.matchAll(/<script([^>]*)>/g)) {
      const attributes = match[1] ?? "";
      expect(attributes, match[0]).toMatch(/type="application\/(ld\+)?json"|src="/);
    }
  });

  it("without APP_ORIGIN, names the sitemap at the origin the request came to", async () => {
    const robots = await ctx.app.inject({ method: "GET", url: "/robots.txt", headers: { host: "crm.example.com" } });
    expect(robots.body).toContain("Sitemap: http://crm.example.com/sitemap.xml");
  });

  it("serves sitemap.xml with the public pages and each published post with its lastmod", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/sitemap.xml" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/xml; charset=utf-8");
    const xml = response.body;
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    for (const pagePath of ["/", "/blog", "/signup", "/login"]) {
      expect(xml).toContain(`<url><loc>http://localhost:80${pagePath}</loc></url>`);
    }
    const posts = (await apiClient(ctx.app).get("/api/blog")).body as { slug: string; updatedAt: string }[];
    expect(posts.length).toBeGreaterThan(0);
    for (const post of posts) {
      expect(xml).toContain(
        `<url><loc>http://localhost:80/blog/${post.slug}</loc><lastmod>${post.updatedAt.slice(0, 10)}</lastmod></url>`,
      );
    }
    expect(xml).not.toContain("/dashboard");
  });

  it("serves robots.txt: the public pages allowed, the API and signed-in paths disallowed, the sitemap named", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/robots.txt" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
    const lines = response.body.trim().split("\n");
    expect(lines[0]).toBe("User-agent: *");
    for (const allowed of ["/", "/blog", "/signup", "/login"]) expect(lines).toContain(`Allow: ${allowed}`);
    for (const disallowed of [
      "/api/",
      "/dashboard",
      "/clients",
      "/client/",
      "/tasks",
      "/reports",
      "/users",
      "/settings",
    ]) {
      expect(lines).toContain(`Disallow: ${disallowed}`);
    }
    expect(lines.at(-1)).toBe("Sitemap: http://localhost:80/sitemap.xml");
  });

  it("compresses the HTML for browsers that accept brotli", async () => {
    const plain = await ctx.app.inject({ method: "GET", url: "/" });
    const response = await ctx.app.inject({ method: "GET", url: "/", headers: { "accept-encoding": "br, gzip" } });
    expect(response.headers["content-encoding"]).toBe("br");
    expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(response.rawPayload).toString("utf8")).toBe(plain.body);
  });
});

describe("the landing page with APP_ORIGIN set", () => {
  const ctx = useTestApp({ env: { APP_ORIGIN: "https://tendwell.example" } });

  it("S-LAND-41: uses the configured origin for the canonical URL, og:url, og:image and the sitemap", async () => {
    const html = (await ctx.app.inject({ method: "GET", url: "/", headers: { host: "internal:3000" } })).body;
    expect(html).toContain('<link rel="canonical" href="https://tendwell.example/">');
    expect(metaContent(html, "og:image")).toBe("https://tendwell.example/screenshots/dashboard-social.jpg");
    const xml = (await ctx.app.inject({ method: "GET", url: "/sitemap.xml" })).body;
    expect(xml).toContain("<loc>https://tendwell.example/blog</loc>");
  });
});

// A stand-in for `vite build` output: the app's index.html and a manifest with the site entry.
const clientDir = makeTempDir();
fs.mkdirSync(path.join(clientDir, ".vite"), { recursive: true });
fs.writeFileSync(path.join(clientDir, "index.html"), "<!doctype html><div id=root>the app</div>");
const manifest = {
  "../site/entry-client.tsx": {
    file: "assets/site-abc.js",
    src: "../site/entry-client.tsx",
    isEntry: true,
    imports: ["_react.js"],
    dynamicImports: ["../site/pages.tsx"],
    css: ["assets/site-abc.css"],
    assets: ["assets/inter-latin-ext-wght-normal-1.woff2", "assets/inter-latin-wght-normal-2.woff2"],
  },
  "_react.js": { file: "assets/react-def.js", imports: ["_jsx.js"] },
  "_jsx.js": { file: "assets/jsx-ghi.js", css: ["assets/shared.css"] },
  "../site/pages.tsx": { file: "assets/pages-jkl.js", imports: ["_react.js"] },
};
fs.writeFileSync(path.join(clientDir, ".vite", "manifest.json"), JSON.stringify(manifest));

describe("the built site and the signed-in app at /", () => {
  const ctx = useTestApp({ clientDir });
  afterAll(() => fs.rmSync(clientDir, { recursive: true, force: true }));
  let signedIn: Awaited<ReturnType<typeof signIn>>;
  beforeAll(async () => {
    const world = await seedFirm(ctx.database.db);
    signedIn = await signIn(ctx.app, world.users.admin);
  });

  it("links the site entry, its imports, its CSS and the Latin font from the manifest", async () => {
    const html = (await ctx.app.inject({ method: "GET", url: "/" })).body;
    expect(html).toContain('<script type="module" src="/assets/site-abc.js"></script>');
    expect(html).toContain('<link rel="modulepreload" href="/assets/react-def.js">');
    expect(html).toContain('<link rel="modulepreload" href="/assets/jsx-ghi.js">');
    expect(html).toContain('<link rel="stylesheet" href="/assets/site-abc.css">');
    expect(html).toContain('<link rel="stylesheet" href="/assets/shared.css">');
    expect(html).toContain(
      '<link rel="preload" href="/assets/inter-latin-wght-normal-2.woff2" as="font" type="font/woff2" crossorigin>',
    );
    expect(html).not.toContain("latin-ext");
    // The landing page hydrates by islands: the page registry's chunk is not needed.
    expect(html).not.toContain("pages-jkl.js");
  });

  it("S-LAND-01: with a valid session GET / serves the app (its Dashboard is /), without a cookie the landing page", async () => {
    const app = await signedIn.get("/");
    expect(app.status).toBe(200);
    expect(app.text).toBe("<!doctype html><div id=root>the app</div>");
    expect(app.headers["cache-control"]).toBe("no-cache");
    expect(String(app.headers.vary)).toMatch(/cookie/i);
    const visitor = await apiClient(ctx.app).get("/");
    expect(visitor.text).toContain("Structure That Strengthens Retention");
  });

  it("treats an unknown or expired session cookie as a visitor", async () => {
    const stranger = apiClient(ctx.app);
    stranger.setSessionToken("not-a-real-session-token");
    const response = await stranger.get("/");
    expect(response.status).toBe(200);
    expect(response.text).toContain("Structure That Strengthens Retention");
  });
});

describe("siteAssetsFromManifest", () => {
  it("keeps the page registry's chunks apart, for pages hydrated whole", () => {
    const assets = siteAssetsFromManifest(manifest);
    expect(assets.modulePreloads).toEqual(["/assets/react-def.js", "/assets/jsx-ghi.js"]);
    expect(assets.pageModulePreloads).toEqual(["/assets/pages-jkl.js"]);
  });

  it("names a build without the site entry", () => {
    expect(() => siteAssetsFromManifest({ "index.html": { file: "assets/index.js", isEntry: true } })).toThrow(
      /no entry site\/entry-client.tsx/,
    );
  });
});

describe("the data script", () => {
  it("escapes JSON so a string with </script> cannot break out of it", () => {
    const evil = "</script><script>alert(1)</script><!--";
    const html = renderSiteDocument({
      data: { page: "landing", props: {} },
      head: {
        title: evil,
        description: evil,
        keywords: [evil],
        path: "/",
        image: "/x.webp",
        imageAlt: evil,
        jsonLd: () => [{ "@type": "Thing", name: evil }],
      },
      origin: "http://localhost",
      assets: { scripts: [], modulePreloads: [], pageModulePreloads: [], styles: [], fonts: [] },
    });
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--</title>");
    const [record] = jsonLdRecords(html);
    expect(record?.name).toBe(evil);
  });
});
