import type { ComponentType } from "react";
import type { IslandName } from "./island";
import { HeroCarousel } from "./landing/hero-carousel";
import { SiteHeader } from "./layout";

/** What the browser hydrates in each island; an island's component takes no props. */
export const islandComponents: Record<IslandName, ComponentType> = {
  "site-header": SiteHeader,
  "hero-carousel": HeroCarousel,
};
