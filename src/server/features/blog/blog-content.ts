import fs from "node:fs";
import path from "node:path";
import { notInArray, sql } from "drizzle-orm";
import { z } from "zod";
import { type BlogSource, blogSourceSchema } from "../../../shared/blog";
import type { Database } from "../../platform/db/database";
import { blogPosts } from "../../platform/db/schema";

/*
 * The vendor's articles (S-BLIST-12, docs/design/blog-content.md): content/blog/<slug>.md, a small
 * front matter block and a body in the light format of S-BPOST-12..15, read and checked at start,
 * then upserted into blog_posts by slug in one transaction. A file that breaks a rule stops the
 * start with a message naming the file and the problem.
 */

/** A content file that cannot be published; the message names the file and the problem. */
export class BlogContentError extends Error {
  override name = "BlogContentError";
}

const frontMatterKeys = [
  "title",
  "introSummary",
  "featuredImage",
  "seoKeywords",
  "metaDescription",
  "publishedAt",
] as const;
type FrontMatterKey = (typeof frontMatterKeys)[number];
const isKey = (key: string): key is FrontMatterKey => (frontMatterKeys as readonly string[]).includes(key);

/**
 * Splits a file into its front matter and body. The front matter sits between two "---" lines and
 * holds `key: value` lines; a key with no value takes the "- item" lines below it as a list.
 */
export function parseBlogFile(slug: string, text: string): BlogSource {
  const lines = text.replace(/^\ufeff/, "").split(/\r?\n/);
  if (lines[0]?.trim() !== "---") throw new Error('it must start with a front matter block opened by a "---" line');
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === "---");
  if (end < 0) throw new Error('its front matter block is not closed by a "---" line');

  const fields: Partial<Record<FrontMatterKey, string | string[]>> = {};
  let list: string[] | undefined;
  for (let index = 1; index < end; index++) {
    const line = lines[index] ?? "";
    if (line.trim() === "") continue;
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item) {
      if (!list) throw new Error(`front matter line ${index + 1}: a list item outside a list ("${line.trim()}")`);
      list.push(unquote(item[1] ?? ""));
      continue;
    }
    const pair = /^([A-Za-z]+):(.*)$/.exec(line);
    if (!pair) throw new Error(`front matter line ${index + 1}: expected "key: value", got "${line.trim()}"`);
    const key = pair[1] ?? "";
    const value = (pair[2] ?? "").trim();
    if (!isKey(key))
      throw new Error(`front matter line ${index + 1}: unknown key "${key}" (known: ${frontMatterKeys.join(", ")})`);
    if (key in fields) throw new Error(`front matter line ${index + 1}: "${key}" is given twice`);
    if (value === "") {
      list = [];
      fields[key] = list;
    } else {
      list = undefined;
      fields[key] = unquote(value);
    }
  }

  const body = lines
    .slice(end + 1)
    .join("\n")
    .trim();
  checkLightFormat(body);
  const parsed = blogSourceSchema.safeParse({ slug, ...fields, fullContent: body });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    throw new Error(`${where}${issue?.message ?? z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

const unquote = (value: string) => {
  const trimmed = value.trim();
  const quoted = /^"(.*)"$/.exec(trimmed) ?? /^'(.*)'$/.exec(trimmed);
  return quoted ? (quoted[1] ?? "") : trimmed;
};

/**
 * The body is the light format only (S-BPOST-12..15): "### " headings, "- " or "1. " list items,
 * paragraphs. Markdown the page would show as raw characters is refused.
 */
export function checkLightFormat(body: string) {
  body.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    const problem =
      /^#/.test(line) && !/^### \S/.test(line)
        ? 'headings are "### " lines only'
        : /^[*+] /.test(line)
          ? 'list items start with "- " or "1. "'
          : /^>/.test(line)
            ? "quotes are not part of the light format"
            : /^(```|~~~)/.test(line)
              ? "code blocks are not part of the light format"
              : /\*\*|__|`|\[[^\]]*\]\([^)]*\)|<[a-z/][^>]*>/i.test(line)
                ? "emphasis, code, links and HTML are not part of the light format"
                : undefined;
    if (problem) throw new Error(`body line ${index + 1}: ${problem} ("${line.slice(0, 60)}")`);
  });
}

/** Reads and checks every post in a content folder (its images in images/), sorted by slug. */
export function readBlogContent(contentDir: string): BlogSource[] {
  if (!fs.existsSync(contentDir)) throw new BlogContentError(`The blog content folder ${contentDir} does not exist`);
  const files = fs
    .readdirSync(contentDir)
    .filter((name) => name.endsWith(".md"))
    .sort();
  const posts: BlogSource[] = [];
  const images = new Map<string, string>();
  for (const file of files) {
    const where = path.join(contentDir, file);
    let post: BlogSource;
    try {
      post = parseBlogFile(file.slice(0, -".md".length), fs.readFileSync(where, "utf8"));
    } catch (error) {
      throw new BlogContentError(`Blog post ${where} is malformed: ${(error as Error).message}`);
    }
    if (!fs.existsSync(path.join(contentDir, "images", post.featuredImage))) {
      throw new BlogContentError(
        `Blog post ${where} is malformed: its image ${post.featuredImage} is not in ${path.join(contentDir, "images")}`,
      );
    }
    const other = images.get(post.featuredImage);
    if (other) {
      throw new BlogContentError(
        `Blog post ${where} is malformed: its image ${post.featuredImage} is already ${other}'s`,
      );
    }
    images.set(post.featuredImage, file);
    posts.push(post);
  }
  return posts;
}

export type BlogSyncResult = { inserted: number; updated: number; deleted: number; unchanged: number };

/**
 * Makes blog_posts hold exactly the content folder's posts, in one transaction: new slugs are
 * inserted, changed ones updated (updatedAt set to now), unchanged rows left alone, and rows whose
 * file was removed deleted. Running it twice changes nothing the second time.
 */
export async function syncBlogPosts(db: Database, contentDir: string): Promise<BlogSyncResult> {
  const posts = readBlogContent(contentDir);
  return db.transaction(async (tx) => {
    const before = await tx.select({ slug: blogPosts.slug }).from(blogPosts);
    const existing = new Set(before.map((row) => row.slug));
    let inserted = 0;
    let updated = 0;
    for (const post of posts) {
      const values = {
        title: post.title,
        introSummary: post.introSummary,
        fullContent: post.fullContent,
        featuredImage: post.featuredImage,
        seoKeywords: post.seoKeywords,
        metaDescription: post.metaDescription,
        publishedAt: new Date(post.publishedAt),
      };
      const written = await tx
        .insert(blogPosts)
        .values({ slug: post.slug, ...values })
        .onConflictDoUpdate({
          target: blogPosts.slug,
          set: { ...values, updatedAt: sql`now()` },
          setWhere: sql`(${blogPosts.title}, ${blogPosts.introSummary}, ${blogPosts.fullContent}, ${blogPosts.featuredImage}, ${blogPosts.seoKeywords}, ${blogPosts.metaDescription}, ${blogPosts.publishedAt}) is distinct from (excluded.title, excluded.intro_summary, excluded.full_content, excluded.featured_image, excluded.seo_keywords, excluded.meta_description, excluded.published_at)`,
        })
        .returning({ slug: blogPosts.slug });
      if (written.length > 0) {
        if (existing.has(post.slug)) updated++;
        else inserted++;
      }
    }
    const slugs = posts.map((post) => post.slug);
    const removed = await tx
      .delete(blogPosts)
      .where(slugs.length > 0 ? notInArray(blogPosts.slug, slugs) : sql`true`)
      .returning({ slug: blogPosts.slug });
    return { inserted, updated, deleted: removed.length, unchanged: posts.length - inserted - updated };
  });
}
