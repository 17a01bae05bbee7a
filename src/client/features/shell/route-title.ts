import { useEffect } from "react";
import { useMatches } from "react-router";
import { brand } from "../../../shared/brand";

/** What a signed-in route declares in its `handle`: the title the shell's header shows. */
export type RouteHandle = { title: string };

function hasTitle(handle: unknown): handle is RouteHandle {
  return typeof handle === "object" && handle !== null && typeof (handle as RouteHandle).title === "string";
}

/** The deepest matched route's title; it also names the browser tab. */
export function useRouteTitle(): string {
  const matches = useMatches();
  const title = matches.map((match) => match.handle).findLast(hasTitle)?.title ?? brand.name;
  useEffect(() => {
    document.title = title === brand.name ? title : `${title} · ${brand.name}`;
  }, [title]);
  return title;
}
