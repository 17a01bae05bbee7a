import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Enforces the layering docs/architecture.md describes, so it cannot rot silently:
 *
 *   src/shared  imports nothing from server, client or site, and no Node built-ins (it runs in browsers);
 *   src/client  never imports server code;
 *   src/server  never imports client code;
 *   src/site    (the public pages, rendered by the server and hydrated in the browser) imports
 *               neither, nor Node built-ins; the server and the client may import it.
 *
 * Inside src/server the arrows point down the floors: main -> app -> jobs, seed -> features ->
 * tenancy -> platform. Between feature folders (server and client alike) there is no cycle; a
 * service never imports a routes file; a routes file never touches the database schema or builds
 * queries itself; a client feature imports another feature only through its `api.ts`.
 *
 * The client's features mirror the server's (issue 42): `client/features/due-dates/api.ts` calls the
 * routes of `server/features/due-dates` and no others, so from a route a newcomer finds its screen.
 * Which routes an api.ts calls is read from the paths it writes: every "/api/…" string in it must
 * begin a route that its server feature's `*.routes.ts` declares (a `:param` of the route and a
 * `${…}` of the client stand for any one segment, and a query key's first segment is the start of
 * the path it reads). Only api.ts writes such paths, and a refresh (`invalidateQueries`) is no call:
 * after a change it names whatever other features show. The few client features that combine
 * several are listed in `combinedFeatures` below, each with the features it may also call and whose
 * screens it may import.
 *
 * Test files (`*.test.ts`) drive the whole app, so they are held only to the first rules.
 */
type Layer = "shared" | "server" | "client" | "site";
export type SourceFile = { path: string; source: string };

/**
 * The client features that combine several server features, each with the features whose routes
 * its api.ts may also call and whose screens it may import. Every other client feature is one
 * server feature's screens.
 */
type Combined = Record<string, readonly string[]>;
export const combinedFeatures: Combined = {
  // The Settings page: the cards these features export, and no api.ts of its own.
  settings: ["auth", "mfa", "notifications", "calendar-feed", "firm", "due-dates"],
  // Signing in is a password, then mfa's second step, or a passkey (mfa's /api/auth/second-step, /api/auth/passkey).
  auth: ["mfa"],
  // The Tasks page's second tab is the templates'; a task's details show its statutory due dates.
  tasks: ["templates", "due-dates"],
  // A client's page: the client, its contacts and its tasks, each changed from there.
  "client-detail": ["clients", "contacts", "tasks"],
  // The people screens open the Assign Clients dialog.
  users: ["assignments"],
  // The onboarding's payment step registers the firm (signup's POST /api/auth/register).
  billing: ["signup"],
};

const forbidden: Record<Layer, Layer[]> = {
  shared: ["server", "client", "site"],
  client: ["server"],
  server: ["client"],
  site: ["server", "client"],
};
const importPattern =
  /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|import\s*["']([^"']+)["']/g;

/** The floors of src/server, lowest first; a file may import its own floor or one below. */
const serverFloors = [["platform"], ["tenancy"], ["features"], ["jobs", "seed"], ["app"], ["main"]];

const isTest = (file: string) => /\.test\.tsx?$/.test(file);

function layerOf(relative: string): Layer | undefined {
  const [top] = relative.split("/");
  return top === "shared" || top === "server" || top === "client" || top === "site" ? top : undefined;
}

function serverFloorOf(relative: string): number | undefined {
  const [top, first] = relative.split("/");
  if (top !== "server" || first === undefined) return undefined;
  // Imports name files without their extension: app.ts is "app" either way.
  const name = first.replace(/\.tsx?$/, "");
  const floor = serverFloors.findIndex((names) => names.includes(name));
  return floor === -1 ? undefined : floor;
}

/** The feature folder a file belongs to, e.g. "server:clients" or "client:users". */
function featureOf(relative: string): string | undefined {
  const parts = relative.split("/");
  if (parts[0] === "server" && parts[1] === "features" && parts.length > 3) return `server:${parts[2]}`;
  if (parts[0] === "client" && parts[1] === "features" && parts.length > 3) return `client:${parts[2]}`;
  return undefined;
}

type Import = { from: string; specifier: string; target: string | undefined };

function importsOf(file: SourceFile, srcDir: string): Import[] {
  const from = path.relative(srcDir, file.path).split(path.sep).join("/");
  return [...file.source.matchAll(importPattern)].map((match) => {
    const specifier = match[1] ?? match[2] ?? match[3] ?? "";
    const target = specifier.startsWith(".")
      ? path
          .relative(srcDir, path.resolve(path.dirname(file.path), specifier))
          .split(path.sep)
          .join("/")
      : undefined;
    return { from, specifier, target };
  });
}

function ruleViolation({ from, specifier, target }: Import, combined: Combined): string | undefined {
  const layer = layerOf(from);
  if (!layer) return undefined;
  if (layer !== "server" && specifier.startsWith("node:")) {
    return `${from}: src/${layer} must not import the Node built-in "${specifier}"`;
  }
  if (
    layer === "server" &&
    /\.routes\.ts$/.test(from) &&
    (specifier === "drizzle-orm" || /\/db\/schema$/.test(specifier))
  ) {
    return `${from}: a routes file must not touch the database ("${specifier}"); its service does`;
  }
  if (target === undefined) return undefined;
  const targetLayer = layerOf(target);
  if (targetLayer && forbidden[layer].includes(targetLayer)) {
    return `${from}: src/${layer} must not import from src/${targetLayer} ("${specifier}")`;
  }
  if (isTest(from)) return undefined;
  const fromFloor = serverFloorOf(from);
  const targetFloor = serverFloorOf(target);
  if (fromFloor !== undefined && targetFloor !== undefined && targetFloor > fromFloor) {
    return `${from}: src/server/${serverFloors[fromFloor]?.join(", ")} must not import up from src/server/${serverFloors[targetFloor]?.join(", ")} ("${specifier}")`;
  }
  if (/\.service\.ts$/.test(from) && /\.routes$/.test(target)) {
    return `${from}: a service must not import a routes file ("${specifier}")`;
  }
  const fromFeature = featureOf(from);
  const targetFeature = featureOf(target);
  if (
    fromFeature?.startsWith("client:") &&
    targetFeature !== undefined &&
    targetFeature !== fromFeature &&
    !target.endsWith("/api") &&
    !combined[nameOf(fromFeature)]?.includes(nameOf(targetFeature))
  ) {
    return `${from}: a client feature must not import another feature's internals ("${specifier}"); share it through components/, lib/ or that feature's api.ts`;
  }
  return undefined;
}

const nameOf = (feature: string) => feature.replace(/^(server|client):/, "");

/** "/api/tasks/${id}/complete?x=1" -> ["api", "tasks", "*", "complete"]: a path's segments, `*` for any one. */
const segmentsOf = (written: string) =>
  (written.split("?")[0] ?? "")
    .replace(/\$\{[^}]*\}/g, "*")
    .split("/")
    .filter((segment) => segment !== "");

/** Every "/api/…" path written in a source, leaving out comments and refreshes (`invalidateQueries({ … })`). */
function apiPathsOf(source: string): string[] {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|\s)\/\/.*$/gm, "$1")
    .replace(/\.invalidateQueries\(\{[^)]*\)/g, "");
  return [...code.matchAll(/(["`])(\/api\/[^"`]*)\1/g)].map((match) => match[2] ?? "");
}

/** Whether a path the client writes is the start of a route: the same segment, or a `:param` or `*` for any. */
function begins(written: string[], route: string[]): boolean {
  return (
    written.length <= route.length &&
    written.every((segment, index) => {
      const declared = route[index] ?? "";
      return segment.includes("*") || declared.startsWith(":") || segment === declared;
    })
  );
}

/** Each server feature's routes, as segments, from the "/api/…" paths its `*.routes.ts` files declare. */
function serverRoutes(files: SourceFile[], srcDir: string): Map<string, string[][]> {
  const routes = new Map<string, string[][]>();
  for (const file of files) {
    const [top, features, feature, name] = path.relative(srcDir, file.path).split(path.sep);
    if (top !== "server" || features !== "features" || !feature || !name?.endsWith(".routes.ts")) continue;
    routes.set(feature, [...(routes.get(feature) ?? []), ...apiPathsOf(file.source).map(segmentsOf)]);
  }
  return routes;
}

/**
 * The routes rule: in a client feature only api.ts writes "/api/…" paths, and each begins a route of
 * its own server feature or of one it combines (`combinedFeatures`).
 */
function routeViolations(files: SourceFile[], srcDir: string, combined: Combined): string[] {
  const routes = serverRoutes(files, srcDir);
  return files.flatMap((file) => {
    const from = path.relative(srcDir, file.path).split(path.sep).join("/");
    const feature = featureOf(from);
    if (!feature?.startsWith("client:") || isTest(from)) return [];
    const paths = apiPathsOf(file.source);
    if (!from.endsWith("/api.ts")) {
      return paths.map((written) => `${from}: only a feature's api.ts calls routes ("${written}")`);
    }
    const allowed = [nameOf(feature), ...(combined[nameOf(feature)] ?? [])];
    return paths.flatMap((written) => {
      const owners = [...routes].filter(([, declared]) => declared.some((route) => begins(segmentsOf(written), route)));
      if (owners.some(([owner]) => allowed.includes(owner))) return [];
      const of =
        owners.length > 0
          ? `a route of ${owners.map(([owner]) => owner).join(", ")}`
          : "no route of any server feature";
      return [
        `${from}: "${written}" is ${of}; a client feature's api.ts calls its own server feature's routes (combinedFeatures lists the exceptions)`,
      ];
    });
  });
}

/** Every cycle between feature folders, each once, as "a -> b -> a". */
function featureCycles(imports: Import[]): string[] {
  const edges = new Map<string, Set<string>>();
  for (const { from, target } of imports) {
    if (target === undefined || isTest(from)) continue;
    const a = featureOf(from);
    const b = featureOf(target);
    if (a === undefined || b === undefined || a === b) continue;
    edges.set(a, (edges.get(a) ?? new Set()).add(b));
  }
  const cycles = new Set<string>();
  const walk = (node: string, trail: string[]) => {
    const at = trail.indexOf(node);
    if (at !== -1) {
      const loop = trail.slice(at);
      // One name per cycle, whichever feature it was entered from: start at its smallest name.
      const start = loop.indexOf([...loop].sort()[0] ?? "");
      const rotated = [...loop.slice(start), ...loop.slice(0, start)];
      cycles.add([...rotated, loop[start] ?? ""].map((name) => name.replace(/^(server|client):/, "")).join(" -> "));
      return;
    }
    for (const next of edges.get(node) ?? []) walk(next, [...trail, node]);
  };
  for (const node of edges.keys()) walk(node, []);
  return [...cycles].sort().map((cycle) => `feature folders import each other in a cycle: ${cycle}`);
}

export function findLayerViolations(
  files: SourceFile[],
  srcDir: string,
  combined: Combined = combinedFeatures,
): string[] {
  const imports = files.flatMap((file) => importsOf(file, srcDir));
  const violations = imports
    .map((entry) => ruleViolation(entry, combined))
    .filter((violation) => violation !== undefined);
  return [...violations, ...routeViolations(files, srcDir, combined), ...featureCycles(imports)];
}

function listSources(dir: string): SourceFile[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    if (!entry.isFile() || !/\.(ts|tsx)$/.test(entry.name)) return [];
    const file = path.join(entry.parentPath, entry.name);
    return [{ path: file, source: fs.readFileSync(file, "utf8") }];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "src");
  const violations = findLayerViolations(listSources(srcDir), srcDir);
  for (const violation of violations) process.stderr.write(`${violation}\n`);
  if (violations.length > 0) process.exit(1);
  process.stdout.write("Layering: ok\n");
}
