import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { blogImagePattern } from "../../../shared/blog";
import { blogImagesPath, defaultBlogImage } from "../../../site/blog/blog-images";
import { AppError } from "../../platform/errors";

/*
 * The blog's bundled images (content/blog/images, docs/design/blog-screens.md). They are read once at start
 * into memory (a handful of small files), so a request never turns its path into a file path:
 * a name is looked up in that map, and a name that cannot be an image's (a folder, "..", an
 * encoded slash) is a 404 before any lookup. A well-formed name without a file answers the
 * default image, so a post whose image went missing still shows one (S-BLIST-13).
 */

const contentTypes: Record<string, string> = {
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
};

type BlogImage = { body: Buffer; type: string; etag: string };

export function readBlogImages(imagesDir: string): Map<string, BlogImage> {
  const images = new Map<string, BlogImage>();
  if (!fs.existsSync(imagesDir)) return images;
  for (const name of fs.readdirSync(imagesDir)) {
    const type = contentTypes[path.extname(name).toLowerCase()];
    if (!type || !blogImagePattern.test(name)) continue;
    const body = fs.readFileSync(path.join(imagesDir, name));
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    images.set(name, { body, type, etag });
  }
  return images;
}

// The names are not content-hashed (a post's front matter names its file), so a day's cache
// with an ETag to revalidate, not "immutable": an edited image shows within a day at worst.
const cacheFor = (seconds: number) => `public, max-age=${seconds}`;

export function blogImagesRoutes(app: FastifyInstance, options: { imagesDir: string }) {
  const images = readBlogImages(options.imagesDir);
  const fallback = images.get(defaultBlogImage);
  if (!fallback) throw new Error(`The default blog image ${defaultBlogImage} is missing from ${options.imagesDir}`);

  app.get<{ Params: { name: string } }>(`${blogImagesPath}/:name`, async (request, reply) => {
    const { name } = request.params;
    if (!blogImagePattern.test(name)) throw new AppError("NOT_FOUND", "Image not found");
    const found = images.get(name);
    const image = found ?? fallback;
    // The default stands in for a missing name only briefly: the file may be added later.
    reply
      .header("cache-control", found ? cacheFor(86_400) : cacheFor(300))
      .header("etag", image.etag)
      .header("x-content-type-options", "nosniff");
    if (request.headers["if-none-match"] === image.etag) return reply.status(304).send();
    return reply.type(image.type).send(image.body);
  });
}
