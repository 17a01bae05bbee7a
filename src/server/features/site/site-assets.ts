import fs from "node:fs";
import path from "node:path";

/**
 * The files a public page's HTML links (decision 0022), from Vite's manifest of the build: the
 * site entry as a module script, modulepreloads of the chunks it imports, its CSS, and the Latin
 * Inter font to preload. Without a build (tests) the lists are empty and the HTML is still whole;
 * under `npm run dev` the page loads the entry from Vite's dev server instead.
 */
export type SiteAssets = {
  scripts: string[];
  modulePreloads: string[];
  /** The page registry's chunks, which a page hydrated whole (not by islands) loads at once. */
  pageModulePreloads: string[];
  styles: string[];
  fonts: string[];
};

type ManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  assets?: string[];
};

/** The site entry, as the manifest keys it (relative to Vite's root, src/client). */
export const siteEntrySuffix = "site/entry-client.tsx";

export const noSiteAssets: SiteAssets = {
  scripts: [],
  modulePreloads: [],
  pageModulePreloads: [],
  styles: [],
  fonts: [],
};

export function siteAssetsFromManifest(manifest: Record<string, ManifestChunk>): SiteAssets {
  const entryKey = Object.keys(manifest).find((key) => key.endsWith(siteEntrySuffix) && manifest[key]?.isEntry);
  const entry = entryKey ? manifest[entryKey] : undefined;
  if (!entry) throw new Error(`The client build's manifest has no entry ${siteEntrySuffix}: check vite.config.ts`);
  const styles = new Set<string>(entry.css ?? []);
  const seen = new Set<string>();
  const collect = (keys: string[]) => {
    const files = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      const chunk = manifest[key];
      if (!chunk) return;
      files.add(chunk.file);
      for (const css of chunk.css ?? []) styles.add(css);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    for (const key of keys) visit(key);
    return [...files].map((file) => `/${file}`);
  };
  const modulePreloads = collect(entry.imports ?? []);
  const pageModulePreloads = collect(entry.dynamicImports ?? []);
  const fonts = (entry.assets ?? []).filter((file) => /inter-latin-wght-normal[^/]*\.woff2$/.test(file));
  return {
    scripts: [`/${entry.file}`],
    modulePreloads,
    pageModulePreloads,
    styles: [...styles].map((file) => `/${file}`),
    fonts: fonts.map((file) => `/${file}`),
  };
}

/** The dev server's preamble for React Fast Refresh, as a file (the CSP allows no inline script). */
export const devPreamblePath = "/site-dev-preamble.js";
export const devPreamble = [
  'import RefreshRuntime from "/@react-refresh";',
  "RefreshRuntime.injectIntoGlobalHook(window);",
  "window.$RefreshReg$ = () => {};",
  "window.$RefreshSig$ = () => (type) => type;",
  "window.__vite_plugin_react_preamble_installed__ = true;",
].join("\n");

export function loadSiteAssets(clientDir: string, options: { dev: boolean; projectRoot: string }): SiteAssets {
  const manifestFile = path.join(clientDir, ".vite", "manifest.json");
  if (fs.existsSync(manifestFile)) {
    return siteAssetsFromManifest(JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Record<string, ManifestChunk>);
  }
  if (!options.dev) return noSiteAssets;
  const entry = path.join(options.projectRoot, "src", "site", "entry-client.tsx");
  return {
    scripts: ["/@vite/client", devPreamblePath, `/@fs${entry.split(path.sep).join("/")}`],
    modulePreloads: [],
    pageModulePreloads: [],
    styles: [],
    fonts: [],
  };
}
