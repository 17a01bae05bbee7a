import type { ReactNode } from "react";

/** The interactive parts of the public pages that hydrate on their own (decision 0022). */
export type IslandName = "site-header" | "hero-carousel";

/**
 * Marks an interactive part of a server-rendered page, so a page listed in `islandPages`
 * (site-data.ts) hydrates just these parts instead of its whole tree: less JavaScript and far less
 * work on a phone's main thread. `display: contents` keeps the wrapper out of the layout.
 */
export function Island({ name, children }: { name: IslandName; children: ReactNode }) {
  return (
    <div data-island={name} className="contents">
      {children}
    </div>
  );
}
