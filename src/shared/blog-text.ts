/*
 * The blog's text rules without zod (S-BLIST-13, S-BPOST-12..15, docs/design/blog-content.md and
 * blog-screens.md): the slug and image name patterns and the body's light format. The public pages
 * import this module, not blog.ts, so their JavaScript stays within the landing page's budget;
 * blog.ts re-exports all of it.
 */

/** A slug: lower-case words joined by single hyphens. Anything else cannot name a post. */
export const blogSlugPattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const blogSlugMaxLength = 100;

/** A bundled image's file name: a slug-like name with an image extension, no folders. */
export const blogImagePattern = /^[a-z0-9]+(-[a-z0-9]+)*\.(svg|png|jpg|jpeg|webp)$/;

/** The light format of a post body (S-BPOST-12..15): what each line becomes. */
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
