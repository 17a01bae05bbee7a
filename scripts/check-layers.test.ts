import { describe, expect, it } from "vitest";
import { findLayerViolations } from "./check-layers";

const src = "/repo/src";
const check = (file: string, source: string) => findLayerViolations([{ path: `${src}/${file}`, source }], src);

describe("layering check", () => {
  it("refuses shared code that reaches into the server or the client", () => {
    expect(check("shared/plans.ts", 'import { db } from "../server/db/database";')).toEqual([
      'shared/plans.ts: src/shared must not import from src/server ("../server/db/database")',
    ]);
    expect(check("shared/x.ts", 'export { Button } from "../client/components/button";')).toHaveLength(1);
  });

  it("refuses Node built-ins in shared and client code", () => {
    expect(check("shared/dates.ts", 'import fs from "node:fs";')).toEqual([
      'shared/dates.ts: src/shared must not import the Node built-in "node:fs"',
    ]);
    expect(check("client/lib/api.ts", 'const m = await import("node:crypto");')).toHaveLength(1);
  });

  it("refuses client code that imports the server, including dynamic imports", () => {
    expect(check("client/pages/a.tsx", 'const s = await import("../../server/app");')).toHaveLength(1);
    expect(check("client/pages/a.tsx", 'import type { Config } from "../../server/config";')).toHaveLength(1);
  });

  it("refuses server code that imports the client", () => {
    expect(check("server/web/x.ts", 'import "../../client/styles.css";')).toHaveLength(1);
  });

  it("keeps the public site between the two: it imports neither, both may import it", () => {
    expect(check("site/landing-page.tsx", 'import { Button } from "../client/components/ui/button";')).toHaveLength(1);
    expect(check("site/render.ts", 'import { db } from "../server/db/database";')).toHaveLength(1);
    expect(check("site/render.ts", 'import fs from "node:fs";')).toHaveLength(1);
    expect(check("server/site/site.routes.ts", 'import { renderSitePage } from "../../site/render";')).toEqual([]);
    expect(check("site/landing-page.tsx", 'import { plans } from "../shared/plans";')).toEqual([]);
  });

  it("allows imports of shared code and packages from every layer", () => {
    expect(
      check(
        "client/lib/api.ts",
        'import type { ApiErrorBody } from "../../shared/api-error";\nimport { z } from "zod";',
      ),
    ).toEqual([]);
    expect(check("server/app.ts", 'import { roles } from "../shared/roles";\nimport fs from "node:fs";')).toEqual([]);
  });
});
