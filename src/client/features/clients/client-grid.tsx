import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { Loader2 } from "lucide-react";
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import type { ClientSummary } from "../../../shared/clients";
import { Button } from "../../components/ui/button";
import { ClientCard } from "./client-card";

/** The grid's columns follow Tailwind's md and lg breakpoints, as the row's classes do. */
const columnQueries = [
  { query: "(min-width: 64rem)", columns: 3 },
  { query: "(min-width: 48rem)", columns: 2 },
] as const;

function currentColumns(): number {
  return columnQueries.find(({ query }) => window.matchMedia(query).matches)?.columns ?? 1;
}

function subscribeToColumns(onChange: () => void) {
  const lists = columnQueries.map(({ query }) => window.matchMedia(query));
  for (const list of lists) list.addEventListener("change", onChange);
  return () => {
    for (const list of lists) list.removeEventListener("change", onChange);
  };
}

/** A card's height plus the gap below it, before the real rows are measured. */
const estimatedRowHeight = 236;
/** Rows drawn beyond the viewport, so a fast scroll or a Tab into the next row finds cards. */
const overscanRows = 2;
/** The next page is asked for when the last drawn row is this close to the loaded end. */
const prefetchRows = 4;

/**
 * The client grid (S-CLIST-12: 1 column, 2 from md, 3 from lg), virtualized by rows against
 * the window's scroll: a firm of 10,000 clients draws only the rows on screen (issue 8: the page's
 * DOM stays under 1,500 elements), and the next page of the API is fetched as the end comes near.
 */
export function ClientGrid({
  clients,
  hasNextPage,
  isFetchingNextPage,
  fetchNextPage,
}: {
  clients: ClientSummary[];
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => void;
}) {
  const columns = useSyncExternalStore(subscribeToColumns, currentColumns);
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  const rowCount = Math.ceil(clients.length / columns);

  // Where the grid starts on the page, for the virtualizer's window coordinates; the header
  // above it wraps differently at each width.
  useLayoutEffect(() => {
    const measure = () => {
      const top = listRef.current?.getBoundingClientRect().top ?? 0;
      setScrollMargin(top + window.scrollY);
    };
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => estimatedRowHeight,
    overscan: overscanRows,
    scrollMargin,
  });
  const rows = virtualizer.getVirtualItems();
  const lastDrawn = rows.at(-1)?.index ?? 0;

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastDrawn >= rowCount - prefetchRows) fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, lastDrawn, rowCount, fetchNextPage]);

  return (
    <div className="flex flex-col gap-4">
      <section aria-label="Clients" ref={listRef} className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {rows.map((row) => (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className="absolute top-0 left-0 grid w-full grid-cols-1 gap-4 pb-4 md:grid-cols-2 lg:grid-cols-3"
            style={{ transform: `translateY(${row.start - scrollMargin}px)` }}
          >
            {clients.slice(row.index * columns, row.index * columns + columns).map((client) => (
              <ClientCard key={client.id} client={client} />
            ))}
          </div>
        ))}
      </section>
      {hasNextPage && (
        // The scroll fetches pages on its own; the button is for keyboard users and for when a
        // page failed to load.
        <div className="flex justify-center">
          <Button variant="outline" onClick={fetchNextPage} disabled={isFetchingNextPage}>
            {isFetchingNextPage && <Loader2 className="animate-spin" aria-hidden="true" />}
            {isFetchingNextPage ? "Loading more clients..." : "Load more"}
          </Button>
        </div>
      )}
    </div>
  );
}
