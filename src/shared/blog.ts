import { z } from "zod";

/*
 * Blog posts (spec sections 2, 3, 7; design section 4): the vendor's articles, public, no firm.
 * The files in content/blog/ are checked with blogSourceSchema at start; the API answers with
 * blogPostSummarySchema (the list) and blogPostSchema (one post). See decision 0021.
 */

/** A slug: lower-case words joined by single hyphens. Anything else cannot name a post. */
export const blogSlugPattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const blogSlugMaxLength = 100;

/** A bundled image's file name: a slug-like name with an image extension, no folders. */
export const blogImagePattern = /^[a-z0-9]+(-[a-z0-9]+)*\.(svg|png|jpg|jpeg|webp)$/;

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

/** The light format of a post body (spec section 2): what each line becomes. */
export type BlogBlock =
  | { kind: "heading"; text: string }
  | { kind: "bullet"; text: string }
  | { kind: "numbered"; text: string }
  | { kind: "paragraph"; text: string };

/** Splits a body into blocks: "### " headings, "- " or "1. " list items, other non-empty lines paragraphs. */
export function blogBlocks(body: string): BlogBlock[] {
  const blocks: BlogBlock[] = [];
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "") continue;
    if (line.startsWith("### ")) blocks.push({ kind: "heading", text: line.slice(4).trim() });
    else if (line.startsWith("- ")) blocks.push({ kind: "bullet", text: line.slice(2).trim() });
    else {
      const numbered = /^\d+\.\s+(.*)$/.exec(line);
      blocks.push(numbered ? { kind: "numbered", text: numbered[1] ?? "" } : { kind: "paragraph", text: line });
    }
  }
  return blocks;
}
