import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import {
  type ClientDetail,
  type CreateClientInput,
  stateFitsJurisdiction,
  stateOutsideUsMessage,
  type UpdateClientInput,
} from "../../../shared/clients";
import { changedFields, previousValues } from "../../platform/changes";
import type { Database, DbExecutor } from "../../platform/db/database";
import { clients, contacts, recurringSchedules, tasks, taskTemplates, userClients } from "../../platform/db/schema";
import { AppError, fieldError } from "../../platform/errors";
import { assertVersion, type IfMatch } from "../../platform/preconditions";
import type { Actor } from "../../tenancy/actor";
import { lockFirmAsActor } from "../../tenancy/firm-lock";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { assertRoomFor } from "../billing/plan-usage";
import { reworkClientDueDates } from "../due-dates/due-date-versions";
import { createSchedule, resumeSchedules, revisitRuleSchedules } from "../schedules/schedules.service";
import { getClient } from "./client-detail.service";
import { type ClientRow, clientColumns, type TaxRow, taxColumns } from "./client-rows";

/*
 * Clients: the firm's client profiles. Every query is scoped to the actor's firm, and for the
 * `user` role to the clients assigned to them (S-ROLE-07): a client they may not see is
 * answered like one that does not exist. Reading them is client-list.service.ts and
 * client-detail.service.ts; this file makes and changes them.
 */

// -------------------------------------------------------------------------------------------
// Writes

/**
 * Creates a client, with its primary contact and a task from each chosen template, in one
 * transaction: a failure at any step leaves nothing behind. Refused beyond the plan's limit.
 */
export async function createClient(options: {
  db: Database;
  actor: Actor;
  input: CreateClientInput;
}): Promise<ClientDetail> {
  const { db, actor, input } = options;
  const id = await db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "clients.write");
    await assertRoomFor(tx, actor.firmId, "clients");
    const templates = await findTemplates(tx, actor.firmId, input.templateIds);
    const [client] = await tx
      .insert(clients)
      .values({
        firmId: actor.firmId,
        name: input.name,
        industry: input.industry,
        address: input.address,
        phone: input.phone,
        email: input.email,
        status: input.status,
        fiscalYearEnd: input.fiscalYearEnd ?? null,
        entityType: input.entityType ?? null,
        jurisdiction: input.jurisdiction ?? null,
        state: input.state ?? null,
      })
      .returning({ id: clients.id });
    if (!client) throw new Error("client insert returned nothing");
    if (input.primaryContact) {
      await tx
        .insert(contacts)
        .values({ firmId: actor.firmId, clientId: client.id, ...input.primaryContact, isPrimary: true });
    }
    // A recurring template becomes a schedule, whose current period's task is made at once with
    // its real due date (decision 0009); a one-time template starts a pending task with no due
    // date (S-STATE-13).
    for (const template of templates) {
      if (template.frequency === null) continue;
      await createSchedule(tx, {
        firmId: actor.firmId,
        clientId: client.id,
        templateId: template.id,
        frequency: template.frequency,
        createdBy: actor.userId,
      });
    }
    const oneTime = templates.filter((template) => template.frequency === null);
    if (oneTime.length > 0) {
      await tx.insert(tasks).values(
        oneTime.map((template) => ({
          firmId: actor.firmId,
          clientId: client.id,
          templateId: template.id,
          name: template.name,
          description: template.description,
          priority: template.priority,
          createdBy: actor.userId,
        })),
      );
    }
    await recordAudit(tx, actor, {
      action: "client.created",
      entityType: "client",
      entityId: client.id,
      after: {
        ...pickAudited(input),
        primaryContact: input.primaryContact?.name ?? null,
        templateIds: templates.map((template) => template.id),
      },
    });
    return client.id;
  });
  return getClient({ db, actor, clientId: id });
}

/** Changes the fields given; admins and super admins only (the route checks the role). */
export async function updateClient(options: {
  db: Database;
  actor: Actor;
  clientId: string;
  input: UpdateClientInput;
  ifMatch?: IfMatch;
}): Promise<ClientDetail> {
  const { db, actor, clientId, input } = options;
  await db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "clients.write");
    const before = await findClientForChange(tx, actor.firmId, clientId);
    assertVersion(before.version, options.ifMatch, "client");
    const changes = changedFields(before, input);
    if (Object.keys(changes).length === 0) return;
    // A state belongs to a US client: judged on the client as the change would leave it.
    const state = changes.state === undefined ? before.state : changes.state;
    const jurisdiction = changes.jurisdiction === undefined ? before.jurisdiction : changes.jurisdiction;
    if (!stateFitsJurisdiction({ state, jurisdiction })) throw fieldError("state", stateOutsideUsMessage);
    await tx
      .update(clients)
      .set({ ...changes, updatedAt: new Date() })
      .where(and(eq(clients.firmId, actor.firmId), eq(clients.id, clientId)));
    // A new year end or state moves the periods and dates of the tasks its rule schedules make next;
    // a new state also moves the open ones' (a statewide holiday moves a filing).
    if (changes.fiscalYearEnd !== undefined || changes.state !== undefined)
      await revisitRuleSchedules(tx, { firmId: actor.firmId, clientId });
    if (changes.state !== undefined)
      await reworkClientDueDates(tx, { firmId: actor.firmId, clientId, changedBy: actor.userId, now: new Date() });
    await recordAudit(tx, actor, {
      action: "client.updated",
      entityType: "client",
      entityId: clientId,
      before: previousValues(before, changes),
      after: changes,
    });
  });
  return getClient({ db, actor, clientId });
}

/**
 * DELETE /api/clients/{id}: archives. Signed-off work is evidence a firm keeps for years, so the
 * client leaves lists and search but stays readable. With `purge`, a super admin removes a client
 * that has no completed tasks for good.
 */
export async function deleteClient(options: {
  db: Database;
  actor: Actor;
  clientId: string;
  purge: boolean;
}): Promise<void> {
  const { db, actor, clientId } = options;
  await db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, options.purge ? "clients.purge" : "clients.write");
    const client = await findClientForChange(tx, actor.firmId, clientId);
    const inClient = and(eq(tasks.firmId, actor.firmId), eq(tasks.clientId, clientId));
    if (!options.purge) {
      if (client.archivedAt !== null) return;
      await tx
        .update(clients)
        .set({ archivedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(clients.firmId, actor.firmId), eq(clients.id, clientId)));
      await recordAudit(tx, actor, {
        action: "client.archived",
        entityType: "client",
        entityId: clientId,
        before: { name: client.name },
      });
      return;
    }
    const [signed] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(tasks)
      .where(and(inClient, eq(tasks.status, "completed")));
    if ((signed?.n ?? 0) > 0) {
      throw new AppError(
        "CONFLICT",
        "This client has signed-off tasks, which are kept as evidence. Archive the client instead.",
      );
    }
    await tx.delete(tasks).where(inClient);
    await tx.delete(contacts).where(and(eq(contacts.firmId, actor.firmId), eq(contacts.clientId, clientId)));
    await tx.delete(userClients).where(and(eq(userClients.firmId, actor.firmId), eq(userClients.clientId, clientId)));
    await tx
      .delete(recurringSchedules)
      .where(and(eq(recurringSchedules.firmId, actor.firmId), eq(recurringSchedules.clientId, clientId)));
    await tx.delete(clients).where(and(eq(clients.firmId, actor.firmId), eq(clients.id, clientId)));
    await recordAudit(tx, actor, {
      action: "client.purged",
      entityType: "client",
      entityId: clientId,
      before: { name: client.name },
    });
  });
}

/** Brings an archived client back into lists and search. */
export async function restoreClient(options: { db: Database; actor: Actor; clientId: string }): Promise<ClientDetail> {
  const { db, actor, clientId } = options;
  await db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "clients.write");
    const client = await findClientForChange(tx, actor.firmId, clientId);
    if (client.archivedAt === null) return;
    await assertRoomFor(tx, actor.firmId, "clients");
    await resumeSchedules(tx, { firmId: actor.firmId, clientId });
    await tx
      .update(clients)
      .set({ archivedAt: null, updatedAt: new Date() })
      .where(and(eq(clients.firmId, actor.firmId), eq(clients.id, clientId)));
    await recordAudit(tx, actor, {
      action: "client.restored",
      entityType: "client",
      entityId: clientId,
      after: { name: client.name },
    });
  });
  return getClient({ db, actor, clientId });
}

// -------------------------------------------------------------------------------------------
// Helpers

async function findClientForChange(
  tx: DbExecutor,
  firmId: string,
  clientId: string,
): Promise<ClientRow & TaxRow & { version: number }> {
  const [client] = await tx
    .select({ ...clientColumns, ...taxColumns, version: clients.version })
    .from(clients)
    .where(and(eq(clients.firmId, firmId), eq(clients.id, clientId)));
  if (!client) throw new AppError("NOT_FOUND", "Client not found");
  return client;
}

/** Active (not archived) clients count against the plan (S-CONST-21). */
async function findTemplates(tx: DbExecutor, firmId: string, ids: string[]) {
  if (ids.length === 0) return [];
  const found = await tx
    .select({
      id: taskTemplates.id,
      name: taskTemplates.name,
      description: taskTemplates.description,
      priority: taskTemplates.priority,
      frequency: taskTemplates.frequency,
    })
    .from(taskTemplates)
    .where(and(eq(taskTemplates.firmId, firmId), inArray(taskTemplates.id, ids), isNull(taskTemplates.deletedAt)));
  if (found.length !== ids.length) throw new AppError("NOT_FOUND", "Task template not found");
  // In the order the caller chose them.
  const order = new Map(ids.map((id, index) => [id, index]));
  return found.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

function pickAudited(input: CreateClientInput) {
  const { name, industry, address, phone, email, status, fiscalYearEnd, entityType, jurisdiction, state } = input;
  return {
    name,
    industry,
    address,
    phone,
    email,
    status,
    fiscalYearEnd: fiscalYearEnd ?? null,
    entityType: entityType ?? null,
    jurisdiction: jurisdiction ?? null,
    state: state ?? null,
  };
}
