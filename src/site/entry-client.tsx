import "./site.css";
import { createElement, type ReactNode, useEffect } from "react";
import { hydrateRoot } from "react-dom/client";
import type { IslandName } from "./island";
import { islandComponents } from "./island-components";
import type { SiteData } from "./pages";
import { islandPages, siteDataId, siteRootId } from "./site-data";

/*
 * The browser side of a server-rendered public page (decision 0022). A page listed in islandPages
 * hydrates only its islands (the header's menu, the carousel); any other page hydrates its whole
 * tree from the registry, loaded on demand so the landing page never downloads it. When every root
 * has hydrated, <body data-hydrated="true"> says so (the browser tests wait for it).
 */
let pending = 0;
function Hydrated({ children }: { children: ReactNode }) {
  useEffect(() => {
    pending -= 1;
    if (pending === 0) document.body.dataset.hydrated = "true";
  }, []);
  return children;
}

function hydrate(container: Element, node: ReactNode) {
  pending += 1;
  hydrateRoot(container, createElement(Hydrated, null, node));
}

const dataElement = document.getElementById(siteDataId);
const root = document.getElementById(siteRootId);
if (dataElement?.textContent && root) {
  const data = JSON.parse(dataElement.textContent) as SiteData;
  if (islandPages.includes(data.page)) {
    for (const element of document.querySelectorAll("[data-island]")) {
      const component = islandComponents[element.getAttribute("data-island") as IslandName];
      if (component) hydrate(element, createElement(component));
    }
  } else {
    void import("./pages").then(({ SitePage }) => hydrate(root, createElement(SitePage, { data })));
  }
}
