/**
 * The contract between the server's HTML (src/server/site) and the browser's hydration
 * (entry-client.tsx): the page's markup sits in the root element, and the page's name and props
 * in a JSON data script, so the browser renders exactly what the server rendered (decision 0022).
 */
export const siteRootId = "root";
export const siteDataId = "site-data";

/**
 * The pages that hydrate only their islands (island.tsx) rather than their whole tree; their
 * static parts need no JavaScript. Other pages hydrate whole, from the page registry.
 */
export const islandPages: readonly string[] = ["landing"];

/**
 * JSON that is safe inside a <script> element: `<`, `>` and `&` are escaped, so no string in it
 * (a post title with `</script>` or `<!--`) can end or change the script; U+2028/2029 are escaped
 * for old parsers.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** What a public page tells search engines and social cards; the server turns it into <head>. */
export type SiteHead = {
  title: string;
  description: string;
  keywords: readonly string[];
  /** Defaults to "index, follow". */
  robots?: string;
  /** The page's path (with a leading slash), made absolute for the canonical URL and og:url. */
  path: string;
  /** An image path on this site for og:image and the Twitter card, made absolute. */
  image: string;
  imageAlt: string;
  ogType?: "website" | "article";
  /** For ogType "article": the Open Graph article:* tags. */
  article?: { publishedTime: string; modifiedTime: string; tags: readonly string[] };
  /** The page's largest image above the fold, fetched early with high priority. */
  imagePreload?: { href: string; srcSet: string; sizes: string };
  /** Structured data records; `origin` makes their URLs absolute. */
  jsonLd?: (origin: string) => Record<string, unknown>[];
};
