import { z } from "zod";
import { blogImagePattern, blogSlugMaxLength, blogSlugPattern } from "./blog-text";

// The zod-free parts live in blog-text.ts, so the public pages' bundle does not carry zod.
export { type BlogBlock, blogBlocks, blogImagePattern, blogSlugMaxLength, blogSlugPattern } from "./blog-text";

/*
 * Blog posts (the BLIST and BPOST requirements, S-API-27..28): the vendor's articles, public, no firm.
 * The files in content/blog/ are checked with blogSourceSchema at start; the API answers with
 * blogPostSummarySchema (the list) and blogPostSchema (one post). See docs/design/blog-content.md.
 */

export const blogPostSummarySchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  title: z.string(),
  introSummary: z.string(),
  featuredImage: z.string(),
  seoKeywords: z.array(z.string()),
  metaDescription: z.string(),
  publishedAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type BlogPostSummary = z.infer<typeof blogPostSummarySchema>;

export const blogPostSchema = blogPostSummarySchema.extend({ fullContent: z.string() });
export type BlogPost = z.infer<typeof blogPostSchema>;

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

/** One content file, front matter and body, as the loader reads it. */
export const blogSourceSchema = z.object({
  slug: z
    .string()
    .regex(blogSlugPattern, "The file name must be a slug: lower-case words joined by hyphens")
    .max(blogSlugMaxLength, `The slug must be at most ${blogSlugMaxLength} characters`),
  title: text("title", 200),
  introSummary: text("introSummary", 600),
  featuredImage: z
    .string({ error: "featuredImage is required" })
    .regex(blogImagePattern, "featuredImage must be an image file name such as compliance-calendar.svg"),
  seoKeywords: z
    .array(text("A keyword", 60), { error: "seoKeywords must be a list" })
    .min(1, "seoKeywords needs at least one keyword")
    .max(20, "seoKeywords must have at most 20 keywords"),
  metaDescription: text("metaDescription", 200),
  publishedAt: z.iso.datetime({
    offset: true,
    error: "publishedAt must be an ISO date-time such as 2026-11-02T09:00:00Z",
  }),
  fullContent: text("The body", 40_000),
});
export type BlogSource = z.infer<typeof blogSourceSchema>;
