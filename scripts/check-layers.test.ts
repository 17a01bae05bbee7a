// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the client code under test writes its paths as templates, ${id} and all
import { describe, expect, it } from "vitest";
import { findLayerViolations } from "./check-layers";

const src = "/repo/src";
const check = (file: string, source: string) => findLayerViolations([{ path: `${src}/${file}`, source }], src);
const checkAll = (files: Record<string, string>, combined: Record<string, string[]> = {}) =>
  findLayerViolations(
    Object.entries(files).map(([file, source]) => ({ path: `${src}/${file}`, source })),
    src,
    combined,
  );

/** Two server features' routes, as their routes files declare them. */
const serverRoutes = {
  "server/features/tasks/tasks.routes.ts":
    'app.get("/api/tasks", list);\napp.patch("/api/tasks/:id/complete", complete);',
  "server/features/due-dates/due-dates.routes.ts":
    'app.get("/api/tasks/:id/due-dates", dates);\napp.post("/api/tasks/:id/due-date", change);',
};

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

  it("lets a feature that combines others import their screens, and no other feature", () => {
    const settingsPage = {
      "client/features/settings/settings-page.tsx": 'import { FirmCard } from "../firm/firm-card";',
    };
    expect(checkAll(settingsPage, { settings: ["firm"] })).toEqual([]);
    expect(checkAll(settingsPage)).toEqual([
      "client/features/settings/settings-page.tsx: a client feature must not import another feature's internals (\"../firm/firm-card\"); share it through components/, lib/ or that feature's api.ts",
    ]);
  });

  it("refuses a client api.ts that calls another server feature's route", () => {
    const tasksApi = (source: string) => checkAll({ ...serverRoutes, "client/features/tasks/api.ts": source });
    expect(tasksApi('requestJson("PATCH", `/api/tasks/${taskId}/complete`, input);')).toEqual([]);
    expect(tasksApi('requestJson("POST", `/api/tasks/${taskId}/due-date`, input);')).toEqual([
      "client/features/tasks/api.ts: \"/api/tasks/${taskId}/due-date\" is a route of due-dates; a client feature's api.ts calls its own server feature's routes (combinedFeatures lists the exceptions)",
    ]);
    expect(tasksApi('requestJson("GET", "/api/reports/x");')).toEqual([
      "client/features/tasks/api.ts: \"/api/reports/x\" is no route of any server feature; a client feature's api.ts calls its own server feature's routes (combinedFeatures lists the exceptions)",
    ]);
  });

  it("reads a query key's first segment as the start of its path, and a refresh as no call", () => {
    const dueDatesApi = (source: string) => checkAll({ ...serverRoutes, "client/features/due-dates/api.ts": source });
    expect(dueDatesApi('queryOptions({ queryKey: ["/api/tasks", taskId, "due-dates"] });')).toEqual([]);
    expect(dueDatesApi('queryClient.invalidateQueries({ queryKey: ["/api/dashboard"] });')).toEqual([]);
    // A path in a comment is not called either.
    expect(dueDatesApi('/** After POST "/api/dashboard/x" */\nconst a = 1;')).toEqual([]);
    expect(dueDatesApi('queryOptions({ queryKey: ["/api/dashboard"] });')).toHaveLength(1);
  });

  it("lets a feature that combines others call their routes too", () => {
    const files = {
      ...serverRoutes,
      "client/features/tasks/api.ts": 'requestJson("POST", `/api/tasks/${id}/due-date`);',
    };
    expect(checkAll(files, { tasks: ["due-dates"] })).toEqual([]);
  });

  it("refuses a route written outside a feature's api.ts", () => {
    expect(
      checkAll({ ...serverRoutes, "client/features/tasks/task-card.tsx": "fetch(`/api/tasks/${id}/complete`);" }),
    ).toEqual([
      'client/features/tasks/task-card.tsx: only a feature\'s api.ts calls routes ("/api/tasks/${id}/complete")',
    ]);
  });
});
