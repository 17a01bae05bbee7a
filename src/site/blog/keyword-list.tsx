import { limitKeywords } from "./blog-format";

/**
 * A post's keywords as small chips, at most `limit` of them; with `countRest` (the cards,
 * S-BLIST-08) a "+N more" chip stands for the rest.
 */
export function KeywordList({
  keywords,
  limit,
  label,
  countRest = false,
}: {
  keywords: readonly string[];
  limit: number;
  label: string;
  countRest?: boolean;
}) {
  const { shown, more } = limitKeywords(keywords, limit);
  if (shown.length === 0) return null;
  return (
    <ul aria-label={label} className="flex flex-wrap gap-2">
      {shown.map((keyword) => (
        <li
          key={keyword}
          className="rounded-full bg-primary-subtle px-2.5 py-0.5 font-medium text-primary-subtle-foreground text-xs"
        >
          {keyword}
        </li>
      ))}
      {countRest && more > 0 ? (
        <li className="rounded-full bg-secondary px-2.5 py-0.5 font-medium text-secondary-foreground text-xs">
          +{more} more
        </li>
      ) : null}
    </ul>
  );
}
