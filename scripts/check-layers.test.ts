import { describe, expect, it } from "vitest";
import { findLayerViolations } from "./check-layers";

const src = "/repo/src";
const check = (file: string, source: string) => findLayerViolations([{ path: `${src}/${file}`, source }], src);
const checkAll = (files: Record<string, string>) =>
  findLayerViolations(
    Object.entries(files).map(([file, source]) => ({ path: `${src}/${file}`, source })),
    src,
  );

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
    expect(check("server/platform/web/x.ts", 'import "../../../client/styles.css";')).toHaveLength(1);
  });

  it("keeps the public site between the two: it imports neither, both may import it", () => {
    expect(check("site/landing-page.tsx", 'import { Button } from "../client/components/ui/button";')).toHaveLength(1);
    expect(check("site/render.ts", 'import { db } from "../server/db/database";')).toHaveLength(1);
    expect(check("site/render.ts", 'import fs from "node:fs";')).toHaveLength(1);
    expect(
      check("server/features/site/site.routes.ts", 'import { renderSitePage } from "../../../site/render";'),
    ).toEqual([]);
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

  it("keeps the server's floors pointing down: platform, tenancy, features, jobs and seed, app, main", () => {
    expect(
      check("server/platform/csv/csv.ts", 'import { listTasks } from "../../features/tasks/tasks.service";'),
    ).toEqual([
      'server/platform/csv/csv.ts: src/server/platform must not import up from src/server/features ("../../features/tasks/tasks.service")',
    ]);
    expect(check("server/tenancy/scopes.ts", 'import { findSession } from "../features/auth/sessions";')).toHaveLength(
      1,
    );
    expect(check("server/features/clients/clients.service.ts", 'import { buildApp } from "../../app";')).toHaveLength(
      1,
    );
    expect(check("server/jobs/background-jobs.ts", 'import { buildApp } from "../app";')).toHaveLength(1);
    expect(check("server/app.ts", 'import { main } from "./main";')).toHaveLength(1);
    expect(
      check(
        "server/features/clients/clients.service.ts",
        'import { lockFirmAsActor } from "../../tenancy/firm-lock";\nimport { AppError } from "../../platform/errors";',
      ),
    ).toEqual([]);
    expect(
      check("server/jobs/background-jobs.ts", 'import { materialize } from "../features/schedules/schedules.service";'),
    ).toEqual([]);
  });

  it("lets tests reach any floor: they drive the whole app", () => {
    expect(check("server/platform/db/database.test.ts", 'import { buildApp } from "../../app";')).toEqual([]);
  });

  it("refuses a service that imports a routes file", () => {
    expect(check("server/features/tasks/tasks.service.ts", 'import { csv } from "../clients/clients.routes";')).toEqual(
      ['server/features/tasks/tasks.service.ts: a service must not import a routes file ("../clients/clients.routes")'],
    );
  });

  it("refuses a routes file that touches the database schema or builds queries", () => {
    expect(check("server/features/tasks/tasks.routes.ts", 'import { tasks } from "../../platform/db/schema";')).toEqual(
      [
        'server/features/tasks/tasks.routes.ts: a routes file must not touch the database ("../../platform/db/schema"); its service does',
      ],
    );
    expect(check("server/features/tasks/tasks.routes.ts", 'import { eq } from "drizzle-orm";')).toHaveLength(1);
    expect(
      check("server/features/tasks/tasks.service.ts", 'import { tasks } from "../../platform/db/schema";'),
    ).toEqual([]);
  });

  it("refuses a cycle between feature folders, on the server and in the client", () => {
    expect(
      checkAll({
        "server/features/auth/auth.service.ts": 'import { claim } from "../billing/billing.service";',
        "server/features/billing/billing.service.ts": 'import { hashToken } from "../auth/sessions";',
      }),
    ).toEqual(["feature folders import each other in a cycle: auth -> billing -> auth"]);
    expect(
      checkAll({
        "client/features/a/a-page.tsx": 'import { useB } from "../b/api";',
        "client/features/b/api.ts": 'import { useC } from "../c/api";',
        "client/features/c/api.ts": 'import { useA } from "../a/api";',
      }),
    ).toEqual(["feature folders import each other in a cycle: a -> b -> c -> a"]);
    expect(
      checkAll({
        "server/features/signup/signup.service.ts":
          'import { createSession } from "../auth/sessions";\nimport { claimSetup } from "../billing/billing.service";',
        "server/features/billing/billing.service.ts":
          'import { recordAudit } from "../audit-trail/audit-trail.service";',
      }),
    ).toEqual([]);
  });

  it("refuses a client feature that imports another feature's internals; its api.ts is the way in", () => {
    expect(
      check("client/features/users/user-card.tsx", 'import { ClientCard } from "../clients/client-card";'),
    ).toEqual([
      "client/features/users/user-card.tsx: a client feature must not import another feature's internals (\"../clients/client-card\"); share it through components/, lib/ or that feature's api.ts",
    ]);
    expect(check("client/features/users/users-page.tsx", 'import { useCurrentUser } from "../auth/api";')).toEqual([]);
    expect(check("client/features/users/user-card.tsx", 'import { UserMenu } from "./user-menu";')).toEqual([]);
  });
});
