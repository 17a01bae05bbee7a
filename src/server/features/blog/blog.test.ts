import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../../../../tests/api-client";
import { makeTempDir } from "../../../../tests/temp-dir";
import { useTestApp } from "../../../../tests/test-app";
import { blogBlocks, blogPostSchema, blogPostSummarySchema } from "../../../shared/blog";
import { blogPosts } from "../../platform/db/schema";
import { projectPaths } from "../../platform/paths";
import { BlogContentError, readBlogContent, syncBlogPosts } from "./blog-content";

const summaryKeys = [
  "featuredImage",
  "id",
  "introSummary",
  "metaDescription",
  "publishedAt",
  "seoKeywords",
  "slug",
  "title",
  "updatedAt",
];

describe("the blog API, without a session", () => {
  const ctx = useTestApp();

  it("S-BLIST-14 S-API-27: GET /api/blog answers 200 without a session, newest first, no body in the list", async () => {
    const response = await apiClient(ctx.app).get("/api/blog");
    expect(response.status).toBe(200);
    const posts = response.body as Record<string, unknown>[];
    expect(posts.length).toBeGreaterThanOrEqual(6);
    for (const post of posts) {
      expect(Object.keys(post).sort()).toEqual(summaryKeys);
      expect(blogPostSummarySchema.parse(post)).toEqual(post);
    }
    const dates = posts.map((post) => String(post.publishedAt));
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("S-BLIST-12: at least six posts with distinct featuredImage, each a bundled image file", async () => {
    const posts = (await apiClient(ctx.app).get("/api/blog")).body as { featuredImage: string }[];
    const images = posts.map((post) => post.featuredImage);
    expect(new Set(images).size).toBe(images.length);
    expect(images.length).toBeGreaterThanOrEqual(6);
    for (const image of images) {
      const file = path.join(projectPaths.blogContent, "images", image);
      expect(fs.existsSync(file), file).toBe(true);
      const svg = fs.readFileSync(file, "utf8");
      expect(svg).toContain('viewBox="0 0 1200 630"');
      expect(svg).not.toMatch(/<text/);
    }
  });

  it("S-API-27 S-API-28 S-BPOST-17: GET /api/blog/:slug answers one post with its body, without a session", async () => {
    const [first] = (await apiClient(ctx.app).get("/api/blog")).body as { slug: string; id: string }[];
    if (!first) throw new Error("no posts");
    const response = await apiClient(ctx.app).get(`/api/blog/${first.slug}`);
    expect(response.status).toBe(200);
    const post = blogPostSchema.parse(response.body);
    expect(post.id).toBe(first.id);
    expect(post.fullContent.length).toBeGreaterThan(1000);
  });

  it("S-API-28 S-BPOST-17: an unknown slug is a 404 with 'Blog post not found'", async () => {
    const response = await apiClient(ctx.app).get("/api/blog/no-such-post");
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: "Blog post not found", code: "NOT_FOUND" });
  });

  it("S-API-28: a malformed slug is answered like an unknown one (404)", async () => {
    for (const slug of ["NO-SUCH", "a--b", "-a", "a_b", "%20", "..%2F..%2Fetc", "%00", "x".repeat(101), "caf%C3%A9"]) {
      const response = await apiClient(ctx.app).get(`/api/blog/${slug}`);
      expect(response.status, slug).toBe(404);
      expect((response.body as { code: string }).code, slug).toBe("NOT_FOUND");
    }
  });

  it("S-BPOST-12 S-BPOST-13 S-BPOST-14 S-BPOST-15: every article's body is the light format only, with headings, bullets and numbered items", async () => {
    const posts = readBlogContent(projectPaths.blogContent);
    expect(posts.length).toBeGreaterThanOrEqual(6);
    for (const post of posts) {
      const blocks = blogBlocks(post.fullContent);
      const count = (kind: string) => blocks.filter((block) => block.kind === kind).length;
      expect(count("heading"), post.slug).toBeGreaterThanOrEqual(3);
      expect(count("bullet"), post.slug).toBeGreaterThanOrEqual(3);
      expect(count("numbered"), post.slug).toBeGreaterThanOrEqual(3);
      expect(count("paragraph"), post.slug).toBeGreaterThanOrEqual(5);
      const words = post.fullContent.split(/\s+/).length;
      expect(words, post.slug).toBeGreaterThanOrEqual(700);
      expect(words, post.slug).toBeLessThanOrEqual(1100);
      for (const line of post.fullContent.split("\n")) {
        expect(line, post.slug).not.toMatch(/^#(?!## )|^[*+>] |\*\*|`|\]\(/);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------

const image = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 630"/>';

function postFile(fields: { title?: string; publishedAt?: string; featuredImage?: string; body?: string } = {}) {
  return [
    "---",
    `title: ${fields.title ?? "A test post"}`,
    "introSummary: What the post is about.",
    `featuredImage: ${fields.featuredImage ?? "one.svg"}`,
    "seoKeywords:",
    "  - testing",
    "  - blog",
    "metaDescription: A test post.",
    `publishedAt: ${fields.publishedAt ?? "2026-01-05T09:00:00Z"}`,
    "---",
    fields.body ?? "### A heading\nA paragraph.\n- An item\n1. A step",
    "",
  ].join("\n");
}

describe("loading content/blog into blog_posts", () => {
  const ctx = useTestApp();
  let dir: string;
  beforeAll(() => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, "images"));
    for (const name of ["one.svg", "two.svg", "three.svg"]) fs.writeFileSync(path.join(dir, "images", name), image);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (slug: string, text: string) => fs.writeFileSync(path.join(dir, `${slug}.md`), text);
  const rows = () => ctx.database.db.select().from(blogPosts).orderBy(blogPosts.slug);

  it("mirrors the folder: the shipped posts are replaced, a second load changes nothing", async () => {
    write("first-post", postFile());
    write("second-post", postFile({ title: "Second", featuredImage: "two.svg" }));
    const first = await syncBlogPosts(ctx.database.db, dir);
    expect(first.inserted).toBe(2);
    expect(first.deleted).toBeGreaterThanOrEqual(6); // the shipped articles, loaded at setup
    const before = await rows();
    expect(before.map((row) => row.slug)).toEqual(["first-post", "second-post"]);
    expect(before[0]?.seoKeywords).toEqual(["testing", "blog"]);

    const again = await syncBlogPosts(ctx.database.db, dir);
    expect(again).toEqual({ inserted: 0, updated: 0, deleted: 0, unchanged: 2 });
    expect(await rows()).toEqual(before);
  });

  it("an edited file updates its row and updatedAt; the others keep theirs", async () => {
    const before = await rows();
    write("first-post", postFile({ title: "First, edited" }));
    expect(await syncBlogPosts(ctx.database.db, dir)).toEqual({ inserted: 0, updated: 1, deleted: 0, unchanged: 1 });
    const after = await rows();
    expect(after[0]?.title).toBe("First, edited");
    expect(after[0]?.id).toBe(before[0]?.id);
    expect(after[0]?.updatedAt.getTime()).toBeGreaterThan(before[0]?.updatedAt.getTime() ?? 0);
    expect(after[1]).toEqual(before[1]);
  });

  it("a removed file's row is deleted", async () => {
    fs.rmSync(path.join(dir, "second-post.md"));
    expect((await syncBlogPosts(ctx.database.db, dir)).deleted).toBe(1);
    expect((await rows()).map((row) => row.slug)).toEqual(["first-post"]);
    expect((await apiClient(ctx.app).get("/api/blog/second-post")).status).toBe(404);
  });

  it("a post published in the future is neither listed nor served", async () => {
    write("future-post", postFile({ featuredImage: "three.svg", publishedAt: "2999-01-01T00:00:00Z" }));
    await syncBlogPosts(ctx.database.db, dir);
    expect(await ctx.database.db.select().from(blogPosts).where(eq(blogPosts.slug, "future-post"))).toHaveLength(1);
    const list = (await apiClient(ctx.app).get("/api/blog")).body as { slug: string }[];
    expect(list.map((post) => post.slug)).toEqual(["first-post"]);
    const response = await apiClient(ctx.app).get("/api/blog/future-post");
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: "Blog post not found", code: "NOT_FOUND" });
    fs.rmSync(path.join(dir, "future-post.md"));
  });

  it("a malformed file stops the load with a message naming the file and the problem, and changes nothing", async () => {
    const before = await rows();
    const cases: [string, string, RegExp][] = [
      ["no-front-matter", "Just a body\n", /must start with a front matter block/],
      ["unclosed", "---\ntitle: x\n", /not closed/],
      ["unknown-key", postFile().replace("title:", "author: me\ntitle:"), /unknown key "author"/],
      ["twice", postFile().replace("title:", "title: one\ntitle:"), /"title" is given twice/],
      ["no-title", postFile().replace(/^title: .*\n/m, ""), /title: title is required/],
      ["bad-date", postFile({ publishedAt: "next Tuesday" }), /publishedAt: publishedAt must be an ISO date-time/],
      ["no-image-file", postFile({ featuredImage: "missing.svg" }), /its image missing.svg is not in/],
      ["bad-image-name", postFile({ featuredImage: "../x.svg" }), /featuredImage must be an image file name/],
      ["shared-image", postFile(), /its image one.svg is already first-post.md's/],
      ["bold", postFile({ body: "A **bold** claim." }), /body line 1: emphasis, code, links and HTML/],
      ["h2", postFile({ body: "## Too big" }), /body line 1: headings are "### " lines only/],
      ["star-list", postFile({ body: "* item" }), /list items start with "- " or "1. "/],
      ["Bad_Name", postFile({ featuredImage: "two.svg" }), /slug: The file name must be a slug/],
    ];
    for (const [slug, text, problem] of cases) {
      write(slug, text);
      const file = path.join(dir, `${slug}.md`);
      const error = await syncBlogPosts(ctx.database.db, dir).catch((caught: unknown) => caught);
      expect(error, slug).toBeInstanceOf(BlogContentError);
      expect((error as Error).message, slug).toContain(`Blog post ${file} is malformed: `);
      expect((error as Error).message, slug).toMatch(problem);
      fs.rmSync(file);
    }
    expect(await rows()).toEqual(before);
  });

  it("a missing content folder stops the load with a clear message", async () => {
    await expect(syncBlogPosts(ctx.database.db, path.join(dir, "nowhere"))).rejects.toThrow(
      /The blog content folder .*nowhere does not exist/,
    );
  });
});
