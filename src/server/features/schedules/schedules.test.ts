import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { seedFirm, signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { maxPeriodsToMaterialize, nextPeriod, periodContaining } from "../../../shared/recurrence";
import { type Frequency, frequencies } from "../../../shared/tasks";
import { connectDatabase, type Database, type DatabaseHandle } from "../../platform/db/database";
import { clients, recurringSchedules, tasks, taskTemplates } from "../../platform/db/schema";
import { insertClient, insertFirm, insertTaskTemplate, insertUser } from "../../seed/factories";
import { createSchedule, materializeSchedules, schedulerLockId } from "./schedules.service";

const DAY_MS = 86_400_000;

type World = { firmId: string; userId: string };

/** The due dates a schedule should have: one per period from `startsAt`'s to `until`'s, oldest first. */
function expectedDueDates(frequency: Frequency, timeZone: string, startsAt: Date, until: Date): string[] {
  const dueDates: string[] = [];
  for (let period = periodContaining(frequency, startsAt, timeZone); period.start <= until; ) {
    dueDates.push(new Date(period.end.getTime() - 1).toISOString());
    period = nextPeriod(frequency, period, timeZone);
  }
  return dueDates;
}

describe("recurring schedules", () => {
  const ctx = useTestApp();
  const db = () => ctx.database.db;
  // The scheduler runs as the app role, as in production: under row-level security, in one firm at a time.
  const app = () => ctx.appDatabase.db;
  const worlds = new Map<string, World>();

  /** A firm in `timeZone` with one user, made once per zone and shared by the tests. */
  async function worldIn(timeZone: string): Promise<World> {
    let world = worlds.get(timeZone);
    if (world === undefined) {
      const firm = await insertFirm(db(), { timeZone });
      const user = await insertUser(db(), { firmId: firm.id, role: "super_admin" });
      world = { firmId: firm.id, userId: user.id };
      worlds.set(timeZone, world);
    }
    return world;
  }

  /** A new client with a new recurring template of `frequency`, in a firm in `timeZone`. */
  async function assignment(frequency: Frequency, timeZone = "UTC") {
    const world = await worldIn(timeZone);
    const client = await insertClient(db(), { firmId: world.firmId });
    const template = await insertTaskTemplate(db(), {
      firmId: world.firmId,
      createdBy: world.userId,
      frequency,
      name: `Close the ${frequency} books`,
      description: "Reconcile and report.",
      priority: "high",
    });
    return { ...world, clientId: client.id, templateId: template.id, frequency };
  }

  /** A schedule as it was before the scheduler existed: no task yet and materialized_until unset. */
  async function legacySchedule(frequency: Frequency, startsAt: Date, timeZone = "UTC") {
    const { firmId, clientId, templateId } = await assignment(frequency, timeZone);
    const [row] = await db()
      .insert(recurringSchedules)
      .values({ firmId, clientId, templateId, frequency, startsAt })
      .returning({ id: recurringSchedules.id });
    if (row === undefined) throw new Error("no schedule");
    return { scheduleId: row.id, firmId, clientId, templateId };
  }

  async function dueDatesOf(scheduleId: string): Promise<string[]> {
    const rows = await db()
      .select({ dueDate: tasks.dueDate })
      .from(tasks)
      .where(eq(tasks.scheduleId, scheduleId))
      .orderBy(asc(tasks.dueDate));
    return rows.map((row) => row.dueDate?.toISOString() ?? "none");
  }

  async function tasksOf(scheduleId: string) {
    return db().select().from(tasks).where(eq(tasks.scheduleId, scheduleId)).orderBy(asc(tasks.dueDate));
  }

  async function complete(taskId: string, userId: string, at: Date) {
    await db()
      .update(tasks)
      .set({
        status: "completed",
        completedAt: at,
        completedBy: userId,
        printedName: "Dana Birch",
        signature: "data:image/png;base64,iVBORw0KGgo=",
        signatureSha256: "0".repeat(64),
      })
      .where(eq(tasks.id, taskId));
  }

  // Every run sees every firm's schedules; ending the earlier tests' ones keeps each test's counts its own.
  beforeEach(async () => {
    await db().update(recurringSchedules).set({ endedAt: new Date() }).where(isNull(recurringSchedules.endedAt));
  });

  describe("createSchedule", () => {
    it("S-STATE-14 materializes the current period at once: monthly from 2025-01-15 in UTC is due 2025-01-31T23:59:59.999Z", async () => {
      const assigned = await assignment("monthly");
      const { scheduleId } = await createSchedule(db(), {
        ...assigned,
        createdBy: assigned.userId,
        now: new Date("2025-01-15T10:00:00Z"),
      });
      const [schedule] = await db().select().from(recurringSchedules).where(eq(recurringSchedules.id, scheduleId));
      expect(schedule).toMatchObject({
        startsAt: new Date("2025-01-15T10:00:00Z"),
        materializedUntil: new Date("2025-02-01T00:00:00Z"),
        createdBy: assigned.userId,
        endedAt: null,
      });
      expect(await tasksOf(scheduleId)).toEqual([
        expect.objectContaining({
          firmId: assigned.firmId,
          clientId: assigned.clientId,
          templateId: assigned.templateId,
          scheduleId,
          name: "Close the monthly books",
          description: "Reconcile and report.",
          priority: "high",
          status: "pending",
          dueDate: new Date("2025-01-31T23:59:59.999Z"),
          createdBy: null,
          completedAt: null,
        }),
      ]);
    });

    it.each([
      ["monthly", "America/New_York", "2025-01-15T10:00:00Z", "2025-02-01T04:59:59.999Z"],
      ["monthly", "Europe/London", "2025-03-15T10:00:00Z", "2025-03-31T22:59:59.999Z"],
      ["daily", "UTC", "2025-01-15T10:00:00Z", "2025-01-15T23:59:59.999Z"],
      ["daily", "Asia/Kolkata", "2025-01-15T20:00:00Z", "2025-01-16T18:29:59.999Z"],
      ["weekly", "UTC", "2025-01-15T10:00:00Z", "2025-01-19T23:59:59.999Z"],
      ["quarterly", "UTC", "2025-01-15T10:00:00Z", "2025-03-31T23:59:59.999Z"],
      ["annually", "America/New_York", "2025-01-15T10:00:00Z", "2026-01-01T04:59:59.999Z"],
    ] as const)(
      "%s in %s created at %s is due at local 23:59:59.999 at the period's end: %s",
      async (frequency, timeZone, now, due) => {
        const assigned = await assignment(frequency, timeZone);
        const { scheduleId } = await createSchedule(db(), { ...assigned, createdBy: null, now: new Date(now) });
        expect(await dueDatesOf(scheduleId)).toEqual([due]);
      },
    );

    it("works inside the caller's transaction and rolls back with it", async () => {
      const assigned = await assignment("weekly");
      const now = new Date("2025-01-15T10:00:00Z");
      await expect(
        db().transaction(async (tx) => {
          await createSchedule(tx, { ...assigned, createdBy: null, now });
          throw new Error("client creation failed later");
        }),
      ).rejects.toThrow("client creation failed later");
      const none = await db().select().from(tasks).where(eq(tasks.clientId, assigned.clientId));
      expect(none).toEqual([]);
      const noSchedule = await db()
        .select()
        .from(recurringSchedules)
        .where(eq(recurringSchedules.clientId, assigned.clientId));
      expect(noSchedule).toEqual([]);

      const { scheduleId } = await db().transaction((tx) => createSchedule(tx, { ...assigned, createdBy: null, now }));
      expect(await dueDatesOf(scheduleId)).toEqual(["2025-01-19T23:59:59.999Z"]);
    });

    it("returns the existing schedule for the same client and template, bringing it up to date without duplicates", async () => {
      const assigned = await assignment("monthly");
      const first = await createSchedule(db(), { ...assigned, createdBy: null, now: new Date("2025-01-15T10:00:00Z") });
      const again = await createSchedule(db(), { ...assigned, createdBy: null, now: new Date("2025-01-20T10:00:00Z") });
      expect(again).toEqual(first);
      expect(await dueDatesOf(first.scheduleId)).toEqual(["2025-01-31T23:59:59.999Z"]);
      const later = await createSchedule(db(), { ...assigned, createdBy: null, now: new Date("2025-02-03T10:00:00Z") });
      expect(later).toEqual(first);
      expect(await dueDatesOf(first.scheduleId)).toEqual(["2025-01-31T23:59:59.999Z", "2025-02-28T23:59:59.999Z"]);
      const schedules = await db()
        .select()
        .from(recurringSchedules)
        .where(eq(recurringSchedules.clientId, assigned.clientId));
      expect(schedules).toHaveLength(1);
    });
  });

  describe("materializeSchedules", () => {
    it("catches up after downtime: one task per month since the start, the current one included", async () => {
      const legacy = await legacySchedule("monthly", new Date("2025-01-15T10:00:00Z"));
      expect(await materializeSchedules(app(), { now: new Date("2025-04-10T08:00:00Z") })).toEqual({
        ran: true,
        schedules: 1,
        tasksCreated: 4,
      });
      expect(await dueDatesOf(legacy.scheduleId)).toEqual([
        "2025-01-31T23:59:59.999Z",
        "2025-02-28T23:59:59.999Z",
        "2025-03-31T23:59:59.999Z",
        "2025-04-30T23:59:59.999Z",
      ]);

      const assigned = await assignment("monthly");
      const { scheduleId } = await createSchedule(db(), {
        ...assigned,
        createdBy: null,
        now: new Date("2025-01-15T10:00:00Z"),
      });
      expect(await materializeSchedules(app(), { now: new Date("2025-04-10T08:00:00Z") })).toEqual({
        ran: true,
        schedules: 1,
        tasksCreated: 3,
      });
      expect(await dueDatesOf(scheduleId)).toEqual(await dueDatesOf(legacy.scheduleId));
    });

    it("creates nothing when run again, in the same period or at the same instant", async () => {
      const { scheduleId } = await legacySchedule("weekly", new Date("2025-01-15T10:00:00Z"), "America/New_York");
      const now = new Date("2025-02-12T12:00:00Z");
      expect((await materializeSchedules(app(), { now })).tasksCreated).toBe(5);
      const before = await dueDatesOf(scheduleId);
      expect(await materializeSchedules(app(), { now })).toEqual({ ran: true, schedules: 0, tasksCreated: 0 });
      expect(await materializeSchedules(app(), { now: new Date("2025-02-16T12:00:00Z") })).toEqual({
        ran: true,
        schedules: 0,
        tasksCreated: 0,
      });
      expect(await dueDatesOf(scheduleId)).toEqual(before);
    });

    it("does not recreate a pending task a user deleted to skip its period", async () => {
      const assigned = await assignment("monthly");
      const { scheduleId } = await createSchedule(db(), {
        ...assigned,
        createdBy: null,
        now: new Date("2025-01-15T10:00:00Z"),
      });
      await db().delete(tasks).where(eq(tasks.scheduleId, scheduleId));
      expect((await materializeSchedules(app(), { now: new Date("2025-01-20T10:00:00Z") })).tasksCreated).toBe(0);
      expect(
        await createSchedule(db(), { ...assigned, createdBy: null, now: new Date("2025-01-21T10:00:00Z") }),
      ).toEqual({ scheduleId });
      expect(await dueDatesOf(scheduleId)).toEqual([]);
      expect((await materializeSchedules(app(), { now: new Date("2025-02-01T00:00:00Z") })).tasksCreated).toBe(1);
      expect(await dueDatesOf(scheduleId)).toEqual(["2025-02-28T23:59:59.999Z"]);
    });

    it("completing the current task does not block the next period", async () => {
      const assigned = await assignment("weekly");
      const { scheduleId } = await createSchedule(db(), {
        ...assigned,
        createdBy: null,
        now: new Date("2025-01-15T10:00:00Z"),
      });
      const [current] = await tasksOf(scheduleId);
      await complete(current?.id ?? "", assigned.userId, new Date("2025-01-16T09:00:00Z"));
      expect((await materializeSchedules(app(), { now: new Date("2025-01-17T10:00:00Z") })).tasksCreated).toBe(0);
      expect((await materializeSchedules(app(), { now: new Date("2025-01-20T00:00:00Z") })).tasksCreated).toBe(1);
      const rows = await tasksOf(scheduleId);
      expect(rows.map((row) => [row.status, row.dueDate?.toISOString()])).toEqual([
        ["completed", "2025-01-19T23:59:59.999Z"],
        ["pending", "2025-01-26T23:59:59.999Z"],
      ]);
    });

    it("skips ended schedules, archived clients and deleted templates", async () => {
      const startsAt = new Date("2025-01-15T10:00:00Z");
      const ended = await legacySchedule("monthly", startsAt);
      await db()
        .update(recurringSchedules)
        .set({ endedAt: startsAt })
        .where(eq(recurringSchedules.id, ended.scheduleId));
      const archived = await legacySchedule("monthly", startsAt);
      await db().update(clients).set({ archivedAt: startsAt }).where(eq(clients.id, archived.clientId));
      const deleted = await legacySchedule("monthly", startsAt);
      await db().update(taskTemplates).set({ deletedAt: startsAt }).where(eq(taskTemplates.id, deleted.templateId));
      const running = await legacySchedule("monthly", startsAt);

      expect(await materializeSchedules(app(), { now: new Date("2025-03-10T10:00:00Z") })).toEqual({
        ran: true,
        schedules: 1,
        tasksCreated: 3,
      });
      for (const skipped of [ended, archived, deleted]) expect(await dueDatesOf(skipped.scheduleId)).toEqual([]);
      expect(await dueDatesOf(running.scheduleId)).toHaveLength(3);
    });

    it("S-STATE-14 a weekly template assigned to a client: run twice, one task per period; complete it, the next period's task appears", async () => {
      const world = await seedFirm(db(), "Weekly Firm");
      const template = await insertTaskTemplate(db(), {
        firmId: world.firm.id,
        createdBy: world.users.super_admin.id,
        frequency: "weekly",
        name: "Weekly payroll run",
      });
      const now = new Date();
      const { scheduleId } = await createSchedule(db(), {
        firmId: world.firm.id,
        clientId: world.assignedClient.id,
        templateId: template.id,
        frequency: "weekly",
        createdBy: world.users.super_admin.id,
        now,
      });
      await materializeSchedules(app(), { now });
      await materializeSchedules(app());
      const thisWeek = periodContaining("weekly", now, "UTC");
      const api = await signIn(ctx.app, world.users.super_admin);
      const shown = await api.get(`/api/clients/${world.assignedClient.id}`);
      expect(shown.status).toBe(200);
      const pending = shown.body.tasks.filter((task: { templateId: string }) => task.templateId === template.id);
      expect(pending).toEqual([
        expect.objectContaining({
          name: "Weekly payroll run",
          status: "pending",
          dueDate: new Date(thisWeek.end.getTime() - 1).toISOString(),
        }),
      ]);

      await complete(pending[0].id, world.users.super_admin.id, new Date());
      const nextWeek = nextPeriod("weekly", thisWeek, "UTC");
      expect(await materializeSchedules(app(), { now: nextWeek.start })).toMatchObject({ tasksCreated: 1 });
      await materializeSchedules(app(), { now: nextWeek.start });
      const after = await api.get(`/api/clients/${world.assignedClient.id}`);
      expect(
        after.body.tasks
          .filter((task: { templateId: string }) => task.templateId === template.id)
          .map((task: { status: string; dueDate: string }) => [task.status, task.dueDate])
          .sort(),
      ).toEqual([
        ["completed", new Date(thisWeek.end.getTime() - 1).toISOString()],
        ["pending", new Date(nextWeek.end.getTime() - 1).toISOString()],
      ]);
      expect(await dueDatesOf(scheduleId)).toHaveLength(2);
    });

    it("caps the catch-up of a very old schedule at the latest periods, the current one included", async () => {
      const { scheduleId } = await legacySchedule("daily", new Date("2019-06-01T00:00:00Z"));
      const now = new Date("2025-06-15T12:00:00Z");
      expect(await materializeSchedules(app(), { now })).toEqual({
        ran: true,
        schedules: 1,
        tasksCreated: maxPeriodsToMaterialize,
      });
      const dueDates = await dueDatesOf(scheduleId);
      expect(dueDates).toHaveLength(maxPeriodsToMaterialize);
      expect(dueDates.at(-1)).toBe("2025-06-15T23:59:59.999Z");
      expect(dueDates[0]).toBe(new Date(Date.parse("2025-06-15T23:59:59.999Z") - 999 * DAY_MS).toISOString());
      expect((await materializeSchedules(app(), { now })).tasksCreated).toBe(0);
    });

    it("works through many schedules in chunks, each schedule once", async () => {
      const startsAt = new Date("2025-01-15T10:00:00Z");
      const made = [];
      for (const frequency of [...frequencies, ...frequencies]) made.push(await legacySchedule(frequency, startsAt));
      const now = new Date("2025-02-03T10:00:00Z");
      const result = await materializeSchedules(app(), { now, chunkSize: 3 });
      let total = 0;
      for (const [index, schedule] of made.entries()) {
        const frequency = frequencies[index % frequencies.length] ?? "daily";
        const expected = expectedDueDates(frequency, "UTC", startsAt, now);
        expect(await dueDatesOf(schedule.scheduleId)).toEqual(expected);
        total += expected.length;
      }
      expect(result).toEqual({ ran: true, schedules: made.length, tasksCreated: total });
    });

    it("does nothing, and says so, while another instance holds the scheduler's lock", async () => {
      const { scheduleId } = await legacySchedule("monthly", new Date("2025-01-15T10:00:00Z"));
      const other = await ctx.database.pool.connect();
      try {
        await other.query("begin");
        await other.query("select pg_advisory_xact_lock($1::bigint)", [schedulerLockId]);
        expect(await materializeSchedules(app(), { now: new Date("2025-03-10T10:00:00Z") })).toEqual({
          ran: false,
          schedules: 0,
          tasksCreated: 0,
        });
        await other.query("rollback");
      } finally {
        other.release();
      }
      expect(await dueDatesOf(scheduleId)).toEqual([]);
      expect((await materializeSchedules(app(), { now: new Date("2025-03-10T10:00:00Z") })).tasksCreated).toBe(3);
    });

    it("the unique constraint, not the bookkeeping alone, keeps one task per period", async () => {
      const { scheduleId, firmId, clientId } = await legacySchedule("monthly", new Date("2025-01-15T10:00:00Z"));
      const now = new Date("2025-03-10T10:00:00Z");
      await materializeSchedules(app(), { now });
      await db()
        .update(recurringSchedules)
        .set({ materializedUntil: null })
        .where(eq(recurringSchedules.id, scheduleId));
      expect(await materializeSchedules(app(), { now })).toEqual({ ran: true, schedules: 1, tasksCreated: 0 });
      expect(await dueDatesOf(scheduleId)).toHaveLength(3);
      await expect(
        db()
          .insert(tasks)
          .values({ firmId, clientId, scheduleId, name: "Twin", dueDate: new Date("2025-01-31T23:59:59.999Z") }),
      ).rejects.toMatchObject({ cause: expect.objectContaining({ constraint: "tasks_schedule_due_date_key" }) });
    });

    it("uses UTC for a firm whose stored time zone is not one the runtime knows, rather than failing every firm", async () => {
      const { scheduleId } = await legacySchedule("monthly", new Date("2025-01-15T10:00:00Z"), "Mars/Olympus_Mons");
      const healthy = await legacySchedule("monthly", new Date("2025-01-15T10:00:00Z"));
      expect((await materializeSchedules(app(), { now: new Date("2025-01-20T10:00:00Z") })).tasksCreated).toBe(2);
      expect(await dueDatesOf(scheduleId)).toEqual(["2025-01-31T23:59:59.999Z"]);
      expect(await dueDatesOf(healthy.scheduleId)).toEqual(["2025-01-31T23:59:59.999Z"]);
    });

    it("two concurrent runs create no duplicates and, between them, every task", async () => {
      const zones = ["UTC", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu"];
      const startsAt = new Date("2025-01-15T10:00:00Z");
      const made: { scheduleId: string; frequency: Frequency; timeZone: string }[] = [];
      for (const [index, frequency] of [...frequencies, ...frequencies, ...frequencies, ...frequencies].entries()) {
        const timeZone = zones[index % zones.length] ?? "UTC";
        made.push({ ...(await legacySchedule(frequency, startsAt, timeZone)), frequency, timeZone });
      }
      let created = 0;
      let now = startsAt;
      for (const days of [40, 1, 0, 17, 75]) {
        now = new Date(now.getTime() + days * DAY_MS);
        const results = await Promise.all([
          materializeSchedules(app(), { now, chunkSize: 3 }),
          materializeSchedules(app(), { now, chunkSize: 2 }),
        ]);
        expect(results.some((result) => result.ran)).toBe(true);
        created += results.reduce((sum, result) => sum + result.tasksCreated, 0);
        let total = 0;
        for (const schedule of made) {
          const expected = expectedDueDates(schedule.frequency, schedule.timeZone, startsAt, now);
          expect(await dueDatesOf(schedule.scheduleId)).toEqual(expected);
          total += expected.length;
        }
        expect(created).toBe(total);
      }
    });
  });

  describe("the scheduler, run any number of times in any order", () => {
    const zones = [
      "UTC",
      "America/New_York",
      "Europe/London",
      "Australia/Lord_Howe",
      "Asia/Kathmandu",
      "Pacific/Chatham",
    ];
    const base = Date.parse("2025-01-01T00:00:00Z");

    type Step =
      | { kind: "run"; delta: number; chunkSize: number }
      | { kind: "concurrent"; delta: number }
      | { kind: "restart" }
      | { kind: "delete"; pick: number };

    // Mostly forward, sometimes repeating the same instant, sometimes back in time.
    const delta = fc.oneof(
      { weight: 5, arbitrary: fc.integer({ min: 0, max: 40 * DAY_MS }) },
      { weight: 2, arbitrary: fc.constant(0) },
      { weight: 2, arbitrary: fc.integer({ min: -15 * DAY_MS, max: 0 }) },
    );
    const step: fc.Arbitrary<Step> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({ kind: fc.constant("run"), delta, chunkSize: fc.integer({ min: 1, max: 3 }) }),
      },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant("concurrent"), delta }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("restart") }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete"), pick: fc.nat() }) },
    );
    const schedule = fc.record({
      frequency: fc.constantFrom(...frequencies),
      timeZone: fc.constantFrom(...zones),
      startOffset: fc.integer({ min: 0, max: 60 * DAY_MS }),
      /** Assigned through createSchedule, or found as a schedule from before the scheduler. */
      viaCreate: fc.boolean(),
    });

    it("S-STATE-14 leaves exactly one task per schedule per period up to the latest run, less those deleted, across restarts and concurrent runs", async () => {
      const url = ctx.database.pool.options.connectionString;
      if (url === undefined) throw new Error("the test pool has no connection string");
      await fc.assert(
        fc.asyncProperty(
          fc.array(schedule, { minLength: 1, maxLength: 3 }),
          fc.array(step, { minLength: 1, maxLength: 8 }),
          async (specs, steps) => {
            await db()
              .update(recurringSchedules)
              .set({ endedAt: new Date() })
              .where(isNull(recurringSchedules.endedAt));
            const model: {
              scheduleId: string;
              frequency: Frequency;
              timeZone: string;
              startsAt: Date;
              reached: Date | null;
              deleted: Set<string>;
            }[] = [];
            for (const spec of specs) {
              const startsAt = new Date(base + spec.startOffset);
              let scheduleId: string;
              if (spec.viaCreate) {
                const assigned = await assignment(spec.frequency, spec.timeZone);
                ({ scheduleId } = await createSchedule(db(), { ...assigned, createdBy: null, now: startsAt }));
              } else {
                ({ scheduleId } = await legacySchedule(spec.frequency, startsAt, spec.timeZone));
              }
              // `reached`: the latest instant a run (or the assignment) materialized this schedule up to.
              model.push({
                scheduleId,
                frequency: spec.frequency,
                timeZone: spec.timeZone,
                startsAt,
                reached: spec.viaCreate ? startsAt : null,
                deleted: new Set(),
              });
            }
            const ids = model.map((entry) => entry.scheduleId);
            let handle: DatabaseHandle | undefined;
            let current: Database = db();
            let now = base + 30 * DAY_MS;
            const ranAt = (at: number) => {
              for (const entry of model) {
                if (at >= entry.startsAt.getTime() && (entry.reached === null || at > entry.reached.getTime())) {
                  entry.reached = new Date(at);
                }
              }
            };
            try {
              for (const next of steps) {
                switch (next.kind) {
                  case "run": {
                    now += next.delta;
                    const result = await materializeSchedules(current, {
                      now: new Date(now),
                      chunkSize: next.chunkSize,
                    });
                    expect(result.ran).toBe(true);
                    ranAt(now);
                    break;
                  }
                  case "concurrent": {
                    now += next.delta;
                    const results = await Promise.all([
                      materializeSchedules(current, { now: new Date(now), chunkSize: 1 }),
                      materializeSchedules(current, { now: new Date(now) }),
                    ]);
                    expect(results.some((result) => result.ran)).toBe(true);
                    ranAt(now);
                    break;
                  }
                  case "restart": {
                    // A new process: its own pool and connections, nothing carried over.
                    await handle?.close();
                    handle = connectDatabase({ url, poolSize: 3 });
                    current = handle.db;
                    break;
                  }
                  case "delete": {
                    const existing = await db()
                      .select({ id: tasks.id, scheduleId: tasks.scheduleId, dueDate: tasks.dueDate })
                      .from(tasks)
                      .where(and(inArray(tasks.scheduleId, ids), eq(tasks.status, "pending")))
                      .orderBy(asc(tasks.id));
                    const victim = existing[next.pick % Math.max(existing.length, 1)];
                    if (victim === undefined) break;
                    await db().delete(tasks).where(eq(tasks.id, victim.id));
                    model
                      .find((entry) => entry.scheduleId === victim.scheduleId)
                      ?.deleted.add(victim.dueDate?.toISOString() ?? "none");
                    break;
                  }
                }
                for (const entry of model) {
                  const expected =
                    entry.reached === null
                      ? []
                      : expectedDueDates(entry.frequency, entry.timeZone, entry.startsAt, entry.reached).filter(
                          (due) => !entry.deleted.has(due),
                        );
                  expect(await dueDatesOf(entry.scheduleId)).toEqual(expected);
                }
              }
            } finally {
              await handle?.close();
            }
            const duplicates = await db().execute<{ n: number }>(
              sql`select count(*)::int as n from (select 1 from tasks where schedule_id is not null group by schedule_id, due_date having count(*) > 1) twins`,
            );
            expect(duplicates.rows[0]?.n).toBe(0);
          },
        ),
        { numRuns: 25 },
      );
    }, 60_000);
  });
});
