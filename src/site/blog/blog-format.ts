import type { BlogBlock } from "../../shared/blog";

/** Cards show three keywords, a post eight (S-CONST-32, S-CONST-33). */
export const cardKeywordLimit = 3;
export const postKeywordLimit = 8;

/** The first `limit` keywords and how many more there are. */
export function limitKeywords(keywords: readonly string[], limit: number): { shown: string[]; more: number } {
  return { shown: keywords.slice(0, limit), more: Math.max(0, keywords.length - limit) };
}

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

/**
 * A published date as "November 16, 2026". Formatted in UTC, so the server's HTML and the
 * browser's hydration print the same day whatever the visitor's time zone.
 */
export function formatPublishedDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/**
 * The body's blocks with consecutive list items of one kind grouped into one list. Each part
 * carries its line number as a React key: a body never changes on a page, so it is stable.
 */
export type BodyLine = { key: string; text: string };
export type BodyGroup =
  | ({ kind: "heading" | "paragraph" } & BodyLine)
  | { kind: "bullets" | "numbers"; key: string; items: BodyLine[] };

export function groupBlocks(blocks: readonly BlogBlock[]): BodyGroup[] {
  const groups: BodyGroup[] = [];
  blocks.forEach((block, index) => {
    const key = `line-${index}`;
    if (block.kind === "heading" || block.kind === "paragraph") {
      groups.push({ kind: block.kind, key, text: block.text });
      return;
    }
    const kind = block.kind === "bullet" ? "bullets" : "numbers";
    const last = groups.at(-1);
    if (last && last.kind === kind) last.items.push({ key, text: block.text });
    else groups.push({ kind, key, items: [{ key, text: block.text }] });
  });
  return groups;
}
