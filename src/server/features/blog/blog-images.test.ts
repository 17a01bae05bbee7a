import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../../tests/test-app";
import { blogImageUrl, socialImageName, socialImageUrl } from "../../../site/blog/blog-images";
import { projectPaths } from "../../platform/paths";

const file = (name: string) => fs.readFileSync(path.join(projectPaths.blogImages, name));

describe("the blog's bundled images, GET /blog-images/:name", () => {
  const ctx = useTestApp();

  it("S-BLIST-04: serves a post's image with its content type and a day's cache", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/blog-images/compliance-calendar.svg" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("image/svg+xml");
    expect(response.headers["cache-control"]).toBe("public, max-age=86400");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.rawPayload.equals(file("compliance-calendar.svg"))).toBe(true);
  });

  it("answers 304 to a revalidation with the image's ETag", async () => {
    const first = await ctx.app.inject({ method: "GET", url: "/blog-images/client-health.svg" });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await ctx.app.inject({
      method: "GET",
      url: "/blog-images/client-health.svg",
      headers: { "if-none-match": etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
  });

  it("S-BLIST-13: a well-formed name with no file answers the default image, cached briefly", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/blog-images/software-image2.png" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("image/svg+xml");
    expect(response.headers["cache-control"]).toBe("public, max-age=300");
    expect(response.rawPayload.equals(file("default.svg"))).toBe(true);
  });

  it("every SVG has its 1200 x 630 PNG twin for link previews (npm run blog:social-images), served as image/png", async () => {
    const svgs = fs.readdirSync(projectPaths.blogImages).filter((name) => name.endsWith(".svg"));
    expect(svgs.length).toBeGreaterThanOrEqual(7);
    for (const svg of svgs) {
      const name = socialImageName(svg);
      expect(name).toBe(svg.replace(/\.svg$/, ".png"));
      const png = file(name);
      // The PNG signature, then the IHDR chunk: width and height as big-endian 32-bit integers.
      expect(png.subarray(1, 4).toString("latin1"), name).toBe("PNG");
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], name).toEqual([1200, 630]);
      expect(png.length, name).toBeLessThan(40_000);
      const response = await ctx.app.inject({ method: "GET", url: socialImageUrl(svg) });
      expect(response.headers["content-type"]).toBe("image/png");
      expect(response.rawPayload.equals(png)).toBe(true);
    }
    expect(socialImageName("photo.jpg")).toBe("photo.jpg");
    expect(socialImageName("../secrets.svg")).toBe("default.png");
  });

  it("S-BLIST-13: the page helper maps a name that cannot be an image's to the default", () => {
    expect(blogImageUrl("client-health.svg")).toBe("/blog-images/client-health.svg");
    expect(blogImageUrl("../secrets.svg")).toBe("/blog-images/default.svg");
    expect(blogImageUrl("")).toBe("/blog-images/default.svg");
    expect(blogImageUrl("Tendwell 1.PNG")).toBe("/blog-images/default.svg");
  });

  it("refuses traversal and names that cannot be an image's with a 404, never a file outside the folder", async () => {
    for (const url of [
      "/blog-images/..%2F..%2Fpackage.json",
      "/blog-images/..%2Fclient-health-signals-and-retention.md",
      "/blog-images/%2e%2e%2fpackage.json",
      "/blog-images/.env",
      "/blog-images/default.svg%00.png",
      "/blog-images/DEFAULT.SVG",
      "/blog-images/default.svg.md",
      "/blog-images/images%5Cdefault.svg",
    ]) {
      const response = await ctx.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers["content-type"], url).toMatch(/^application\/json/);
      expect(response.json().code, url).toBe("NOT_FOUND");
    }
    // Real "..", "." segments are resolved before routing, so they never reach the image route.
    const nested = await ctx.app.inject({ method: "GET", url: "/blog-images/../package.json" });
    expect(nested.body).not.toContain('"name": "tendwell"');
  });
});
