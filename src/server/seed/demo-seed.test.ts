import { createHash } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../tests/test-app";
import { taskStatus } from "../../shared/tasks";
import { verifyPassword } from "../features/auth/password";
import {
  clients,
  contacts,
  firms,
  recurringSchedules,
  tasks,
  taskTemplates,
  userClients,
  users,
} from "../platform/db/schema";
import { demoLogins, demoPassword, seedDemoData } from "./demo-seed";

describe("demo seed", () => {
  const ctx = useTestApp();
  const now = new Date();

  it("creates a living firm: one user per role, three dozen clients, tasks in every state", async () => {
    const db = ctx.database.db;
    expect(await seedDemoData(db, { now, onlyIfEmpty: true })).toBe(true);

    const [firm] = await db.select().from(firms);
    expect(firm?.name).toBe("Northbridge Advisory Group");
    const people = await db.select().from(users);
    expect(people.map((user) => [user.username, user.role]).sort()).toEqual(
      demoLogins.map((login) => [login.username, login.role]).sort(),
    );
    for (const person of people) expect(await verifyPassword(person.passwordHash, demoPassword)).toBe(true);

    const clientRows = await db.select().from(clients);
    expect(clientRows).toHaveLength(36);
    expect(new Set(clientRows.map((client) => client.name)).size).toBe(36);
    // No two demo clients share a name's first word (the client list reads like a real book).
    expect(new Set(clientRows.map((client) => client.name.split(" ")[0])).size).toBe(36);
    expect(new Set(clientRows.map((client) => client.status))).toEqual(new Set(["active", "inactive", "prospect"]));
    const [primaryContacts] = await db.select({ n: count() }).from(contacts).where(eq(contacts.isPrimary, true));
    expect(primaryContacts?.n).toBe(36);
    expect((await db.select().from(taskTemplates)).length).toBeGreaterThanOrEqual(8);

    const taskRows = await db.select().from(tasks);
    const states = new Set(taskRows.map((task) => taskStatus(task, now)));
    expect(states).toEqual(new Set(["pending", "overdue", "completed"]));
    expect(taskRows.some((task) => task.status === "pending" && task.dueDate === null)).toBe(true);

    const staff = people.find((user) => user.role === "user");
    const assigned = await db
      .select()
      .from(userClients)
      .where(eq(userClients.userId, staff?.id ?? ""));
    expect(assigned.length).toBeGreaterThan(5);
  });

  it("assigns recurring templates to some active clients, each with this period's task due at its end", async () => {
    const db = ctx.database.db;
    const schedules = await db.select().from(recurringSchedules);
    expect(schedules.length).toBeGreaterThanOrEqual(5);
    for (const schedule of schedules) {
      const made = await db.select().from(tasks).where(eq(tasks.scheduleId, schedule.id));
      expect(made).toHaveLength(1);
      expect(made[0]?.status).toBe("pending");
      expect(made[0]?.dueDate?.getTime()).toBeGreaterThan(now.getTime());
    }
  });

  it("signs completed tasks with a real, non-blank 400x128 PNG whose hash is stored", async () => {
    const completed = await ctx.database.db.select().from(tasks).where(eq(tasks.status, "completed"));
    expect(completed.length).toBeGreaterThan(10);
    for (const task of completed.slice(0, 5)) {
      const base64 = task.signature?.replace(/^data:image\/png;base64,/, "") ?? "";
      const bytes = Buffer.from(base64, "base64");
      const image = PNG.sync.read(bytes);
      expect([image.width, image.height]).toEqual([400, 128]);
      const inked = image.data.filter((_, index) => index % 4 === 3 && image.data[index] === 255).length;
      expect(inked).toBeGreaterThan(200);
      expect(task.signatureSha256).toBe(createHash("sha256").update(bytes).digest("hex"));
      expect(task.printedName).toBeTruthy();
      expect(task.completedBy).toBeTruthy();
    }
  });

  it("gives the reports a year of signed-off work: spread over the year, on time and late, by all three users, none in the future", async () => {
    const completed = await ctx.database.db.select().from(tasks).where(eq(tasks.status, "completed"));
    const ages = completed.map((task) => (now.getTime() - (task.completedAt?.getTime() ?? 0)) / 86_400_000);
    expect(Math.min(...ages)).toBeGreaterThan(0);
    expect(ages.some((age) => age <= 30)).toBe(true);
    expect(ages.some((age) => age > 90 && age <= 180)).toBe(true);
    expect(ages.some((age) => age > 180 && age <= 365)).toBe(true);
    const late = completed.filter((task) => (task.completedAt?.getTime() ?? 0) > (task.dueDate?.getTime() ?? Infinity));
    expect(late.length).toBeGreaterThan(5);
    expect(completed.length - late.length).toBeGreaterThan(late.length);
    expect(new Set(completed.map((task) => task.completedBy)).size).toBe(3);
    for (const task of completed) expect(task.completedAt?.getTime()).toBeGreaterThan(task.createdAt.getTime());
  });

  it("never seeds twice", async () => {
    const db = ctx.database.db;
    expect(await seedDemoData(db, { now })).toBe(false);
    expect(await seedDemoData(db, { now, onlyIfEmpty: true })).toBe(false);
    const [firmCount] = await db.select({ n: count() }).from(firms);
    const [clientCount] = await db.select({ n: count() }).from(clients);
    expect([firmCount?.n, clientCount?.n]).toEqual([1, 36]);
  });
});
