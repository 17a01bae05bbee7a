import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { brand } from "../../../shared/brand";
import { type SiteData, SitePage } from "../../../site/pages";
import { islandPages, type SiteHead, scriptSafeJson, siteDataId, siteRootId } from "../../../site/site-data";
import type { SiteAssets } from "./site-assets";

const escapeHtml = (value: string) =>
  value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

/** The logo mark as the tab icon, inline (img-src allows data:), so no request and no 404. */
const favicon = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#0f766e"/><path d="${brand.markPath}" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/></svg>`,
)}`;

const meta = (attribute: "name" | "property", key: string, content: string) =>
  `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`;

/**
 * A public page as a complete HTML document (decision 0022): the head a crawler reads (title,
 * description, keywords, robots, canonical, Open Graph, Twitter card, JSON-LD), the page rendered
 * to HTML in the root element, and its data for hydration. No inline executable script: the CSP
 * allows script-src 'self' only, and the JSON scripts are data.
 */
export function renderSiteDocument(options: {
  data: SiteData;
  head: SiteHead;
  /** The public origin, e.g. https://tendwell.app, without a trailing slash. */
  origin: string;
  assets: SiteAssets;
}): string {
  const { data, head, origin, assets } = options;
  const url = `${origin}${head.path}`;
  const image = `${origin}${head.image}`;
  const body = renderToString(createElement(SitePage, { data }));
  const jsonLd = (head.jsonLd?.(origin) ?? []).map(
    (record) => `<script type="application/ld+json">${scriptSafeJson(record)}</script>`,
  );
  const headTags = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(head.title)}</title>`,
    meta("name", "description", head.description),
    meta("name", "keywords", head.keywords.join(", ")),
    meta("name", "robots", head.robots ?? "index, follow"),
    '<meta name="theme-color" content="#0f766e">',
    `<link rel="icon" href="${favicon}">`,
    `<link rel="canonical" href="${escapeHtml(url)}">`,
    meta("property", "og:type", head.ogType ?? "website"),
    meta("property", "og:site_name", "Tendwell"),
    meta("property", "og:title", head.title),
    meta("property", "og:description", head.description),
    meta("property", "og:url", url),
    meta("property", "og:image", image),
    meta("property", "og:image:alt", head.imageAlt),
    ...(head.article
      ? [
          meta("property", "article:published_time", head.article.publishedTime),
          meta("property", "article:modified_time", head.article.modifiedTime),
          ...head.article.tags.map((tag) => meta("property", "article:tag", tag)),
        ]
      : []),
    meta("name", "twitter:card", "summary_large_image"),
    meta("name", "twitter:title", head.title),
    meta("name", "twitter:description", head.description),
    meta("name", "twitter:image", image),
    meta("name", "twitter:image:alt", head.imageAlt),
    ...(head.imagePreload
      ? [
          `<link rel="preload" as="image" href="${escapeHtml(head.imagePreload.href)}" imagesrcset="${escapeHtml(head.imagePreload.srcSet)}" imagesizes="${escapeHtml(head.imagePreload.sizes)}" fetchpriority="high">`,
        ]
      : []),
    ...assets.fonts.map((href) => `<link rel="preload" href="${href}" as="font" type="font/woff2" crossorigin>`),
    ...assets.styles.map((href) => `<link rel="stylesheet" href="${href}">`),
    ...assets.modulePreloads.map((href) => `<link rel="modulepreload" href="${href}">`),
    ...(islandPages.includes(data.page) ? [] : assets.pageModulePreloads).map(
      (href) => `<link rel="modulepreload" href="${href}">`,
    ),
    ...assets.scripts.map((src) => `<script type="module" src="${src}"></script>`),
    ...jsonLd,
  ];
  return [
    "<!doctype html>",
    '<html lang="en">',
    `<head>${headTags.join("")}</head>`,
    "<body>",
    `<div id="${siteRootId}">${body}</div>`,
    `<script type="application/json" id="${siteDataId}">${scriptSafeJson(data)}</script>`,
    "</body>",
    "</html>",
  ].join("");
}
