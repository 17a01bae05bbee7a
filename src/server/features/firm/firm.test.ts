import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type SeededFirm, seedFirm, signIn } from "../../../../tests/fixtures";
import { useTestApp } from "../../../../tests/test-app";
import { auditEvents } from "../../platform/db/schema";

describe("the firm", () => {
  const ctx = useTestApp();
  let world: SeededFirm;
  beforeAll(async () => {
    world = await seedFirm(ctx.database.db);
  });

  it("every role reads its firm, with the time zone (UTC unless set)", async () => {
    const response = await (await signIn(ctx.app, world.users.user)).get("/api/firm");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: world.firm.id, name: world.firm.name, timeZone: "UTC" });
  });

  it("a super admin renames the firm and sets its time zone; the change is audited", async () => {
    const owner = await signIn(ctx.app, world.users.super_admin);
    const response = await owner.patch("/api/firm", { name: "  Harbor & Vale LLP ", timeZone: "Europe/London" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: "Harbor & Vale LLP", timeZone: "Europe/London" });
    const [event] = await ctx.database.db.select().from(auditEvents).where(eq(auditEvents.action, "firm.updated"));
    expect(event?.after).toEqual({ name: "Harbor & Vale LLP", timeZone: "Europe/London" });
  });

  it("refuses an unknown time zone, an empty change, and anyone but a super admin", async () => {
    const owner = await signIn(ctx.app, world.users.super_admin);
    for (const timeZone of ["Mars/Olympus", "UTC+5", ""]) {
      const response = await owner.patch("/api/firm", { timeZone });
      expect(response.status, timeZone).toBe(400);
      expect(response.body.message).toBe("Choose a time zone from the list");
    }
    expect((await owner.patch("/api/firm", {})).body.message).toBe("Nothing to change");
    const admin = await (await signIn(ctx.app, world.users.admin)).patch("/api/firm", { name: "Mine Now" });
    expect(admin.status).toBe(403);
    expect(admin.body.message).toBe("Your role (admin) does not allow you to change the firm's name and time zone");
  });
});
