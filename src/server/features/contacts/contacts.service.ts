import { and, eq, sql } from "drizzle-orm";
import type { Contact, CreateContactInput, UpdateContactInput } from "../../../shared/clients";
import { changedFields } from "../../platform/changes";
import type { Database, DbExecutor } from "../../platform/db/database";
import { clients, contacts } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { assertVersion, type IfMatch } from "../../platform/preconditions";
import type { Actor } from "../../tenancy/actor";
import { lockFirmAsActor } from "../../tenancy/firm-lock";
import { assignedUserOf, visibleClient } from "../../tenancy/scopes";
import { recordAudit } from "../audit-trail/audit-trail.service";

/*
 * A client's key contacts. At most one is primary (a partial unique index holds it): making one
 * primary clears the client's other primary in the same transaction.
 */

type ContactRow = typeof contacts.$inferSelect;

const audited = (row: ContactRow) => ({
  name: row.name,
  title: row.title,
  phone: row.phone,
  email: row.email,
  isPrimary: row.isPrimary,
});

export async function createContact(options: {
  db: Database;
  actor: Actor;
  input: CreateContactInput;
}): Promise<Contact> {
  const { db, actor, input } = options;
  return db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "clients.write");
    const [client] = await tx
      .select({ id: clients.id })
      .from(clients)
      .where(and(eq(clients.firmId, actor.firmId), eq(clients.id, input.clientId)));
    if (!client) throw new AppError("NOT_FOUND", "Client not found");
    if (input.isPrimary) await clearPrimary(tx, actor.firmId, input.clientId);
    const [row] = await tx
      .insert(contacts)
      .values({ firmId: actor.firmId, ...input })
      .returning();
    if (!row) throw new Error("contact insert returned nothing");
    await recordAudit(tx, actor, {
      action: "contact.created",
      entityType: "contact",
      entityId: row.id,
      after: { clientId: row.clientId, ...audited(row) },
    });
    return toContact(row);
  });
}

/** One contact; 404 when the actor may not see its client. */
export async function getContact(options: { db: Database; actor: Actor; contactId: string }): Promise<Contact> {
  const { db, actor, contactId } = options;
  const [row] = await db
    .select()
    .from(contacts)
    .where(
      and(
        eq(contacts.firmId, actor.firmId),
        eq(contacts.id, contactId),
        visibleClient(contacts.firmId, contacts.clientId, sql`${assignedUserOf(actor, "clients.read")}`),
      ),
    );
  if (!row) throw new AppError("NOT_FOUND", "Contact not found");
  return toContact(row);
}

export async function updateContact(options: {
  db: Database;
  actor: Actor;
  contactId: string;
  input: UpdateContactInput;
  ifMatch?: IfMatch;
}): Promise<Contact> {
  const { db, actor, contactId, input } = options;
  return db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "clients.write");
    const before = await findContact(tx, actor.firmId, contactId);
    assertVersion(before.version, options.ifMatch, "contact");
    const changes = changedFields(before, input);
    if (Object.keys(changes).length === 0) return toContact(before);
    if (changes.isPrimary === true) await clearPrimary(tx, actor.firmId, before.clientId);
    const [row] = await tx
      .update(contacts)
      .set({ ...changes, updatedAt: new Date() })
      .where(and(eq(contacts.firmId, actor.firmId), eq(contacts.id, contactId)))
      .returning();
    if (!row) throw new AppError("NOT_FOUND", "Contact not found");
    await recordAudit(tx, actor, {
      action: "contact.updated",
      entityType: "contact",
      entityId: contactId,
      before: audited(before),
      after: audited(row),
    });
    return toContact(row);
  });
}

export async function deleteContact(options: { db: Database; actor: Actor; contactId: string }): Promise<void> {
  const { db, actor, contactId } = options;
  await db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "clients.write");
    const before = await findContact(tx, actor.firmId, contactId);
    await tx.delete(contacts).where(and(eq(contacts.firmId, actor.firmId), eq(contacts.id, contactId)));
    await recordAudit(tx, actor, {
      action: "contact.deleted",
      entityType: "contact",
      entityId: contactId,
      before: { clientId: before.clientId, ...audited(before) },
    });
  });
}

async function findContact(tx: DbExecutor, firmId: string, contactId: string): Promise<ContactRow> {
  const [row] = await tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.firmId, firmId), eq(contacts.id, contactId)));
  if (!row) throw new AppError("NOT_FOUND", "Contact not found");
  return row;
}

async function clearPrimary(tx: DbExecutor, firmId: string, clientId: string) {
  await tx
    .update(contacts)
    .set({ isPrimary: false, updatedAt: new Date() })
    .where(and(eq(contacts.firmId, firmId), eq(contacts.clientId, clientId), eq(contacts.isPrimary, true)));
}

function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    clientId: row.clientId,
    name: row.name,
    title: row.title,
    phone: row.phone,
    email: row.email,
    isPrimary: row.isPrimary,
    createdAt: row.createdAt.toISOString(),
    version: row.version,
  };
}
