import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { findLibraryTemplate } from "../../../shared/template-library";
import {
  type CreateTemplateInput,
  type LibraryTemplateEntry,
  libraryAsSeenBy,
  type Template,
  type UpdateTemplateInput,
} from "../../../shared/templates";
import { changedFields } from "../../platform/changes";
import type { Database, DbExecutor } from "../../platform/db/database";
import { preparedStatement } from "../../platform/db/prepared";
import { recurringSchedules, tasks, taskTemplates } from "../../platform/db/schema";
import { AppError, fieldError } from "../../platform/errors";
import { assertVersion, type IfMatch } from "../../platform/preconditions";
import type { Actor } from "../../tenancy/actor";
import { lockFirmAsActor } from "../../tenancy/firm-lock";
import { recordAudit } from "../audit-trail/audit-trail.service";
import { assertRoomFor } from "../billing/plan-usage";
import { dueDateRule, templateFrequencyOf } from "../due-dates/due-date-rules";
import { revisitRuleSchedules } from "../schedules/schedules.service";

/*
 * The firm's task templates, and the curated library they can be added from. A deleted template
 * is hidden, not removed: its schedules end, the tasks made from it stay (their template link is
 * cleared, as issue 7 asks), and the row stays for the ended schedules to point at.
 */

type TemplateRow = typeof taskTemplates.$inferSelect;

const templateColumns = {
  id: taskTemplates.id,
  name: taskTemplates.name,
  description: taskTemplates.description,
  priority: taskTemplates.priority,
  isRecurring: taskTemplates.isRecurring,
  frequency: taskTemplates.frequency,
  createdBy: taskTemplates.createdBy,
  createdAt: taskTemplates.createdAt,
  libraryKey: taskTemplates.libraryKey,
  dueDateRule: taskTemplates.dueDateRule,
  version: taskTemplates.version,
};

const templatesOfFirm = preparedStatement("templates_of_firm", (db) =>
  db
    .select(templateColumns)
    .from(taskTemplates)
    .where(and(eq(taskTemplates.firmId, sql.placeholder("firmId")), isNull(taskTemplates.deletedAt)))
    .orderBy(asc(taskTemplates.createdAt), asc(taskTemplates.id)),
);

/** Newest last, as they were made (the screens sort as they like). */
export async function listTemplates(options: { db: Database; actor: Actor }): Promise<Template[]> {
  const rows = await templatesOfFirm(options.db).execute({ firmId: options.actor.firmId });
  return rows.map(toTemplate);
}

/** `createdBy` is the signed-in user, whatever the body said (S-ROLE-20). */
export async function createTemplate(options: {
  db: Database;
  actor: Actor;
  input: CreateTemplateInput;
}): Promise<Template> {
  const { db, actor, input } = options;
  return db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "templates.create");
    await assertRoomFor(tx, actor.firmId, "customTemplates");
    return insertTemplate(tx, actor, { ...input, libraryKey: null });
  });
}

/** One of the firm's templates (a deleted one is not found). */
export async function getTemplate(options: { db: Database; actor: Actor; templateId: string }): Promise<Template> {
  return toTemplate(await findTemplate(options.db, options.actor.firmId, options.templateId));
}

export async function updateTemplate(options: {
  db: Database;
  actor: Actor;
  templateId: string;
  input: UpdateTemplateInput;
  ifMatch?: IfMatch;
}): Promise<Template> {
  const { db, actor, templateId, input } = options;
  return db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "templates.manage");
    const before = await findTemplate(tx, actor.firmId, templateId);
    assertVersion(before.version, options.ifMatch, "template");
    const changes = changedFields(before, {
      name: input.name,
      description: input.description,
      priority: input.priority,
      frequency: input.frequency,
      isRecurring: input.isRecurring,
      dueDateRule: input.dueDateRule,
    });
    checkDueDateRule(
      changes.dueDateRule === undefined ? before.dueDateRule : changes.dueDateRule,
      changes.frequency === undefined ? before.frequency : changes.frequency,
    );
    if (Object.keys(changes).length === 0) return toTemplate(before);
    const [row] = await tx
      .update(taskTemplates)
      .set({ ...changes, updatedAt: new Date() })
      .where(and(eq(taskTemplates.firmId, actor.firmId), eq(taskTemplates.id, templateId)))
      .returning();
    if (!row) throw new AppError("NOT_FOUND", "Task template not found");
    // Its schedules' next tasks follow the new rule (or, without one, the frequency's periods).
    if (changes.dueDateRule !== undefined)
      await revisitRuleSchedules(tx, { firmId: actor.firmId, templateId, afresh: true });
    await recordAudit(tx, actor, {
      action: "template.updated",
      entityType: "template",
      entityId: templateId,
      before: audited(before),
      after: audited(row),
    });
    return toTemplate(row);
  });
}

export async function deleteTemplate(options: { db: Database; actor: Actor; templateId: string }): Promise<void> {
  const { db, actor, templateId } = options;
  await db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "templates.manage");
    const before = await findTemplate(tx, actor.firmId, templateId);
    const now = new Date();
    await tx
      .update(taskTemplates)
      .set({ deletedAt: now, updatedAt: now })
      .where(and(eq(taskTemplates.firmId, actor.firmId), eq(taskTemplates.id, templateId)));
    await tx
      .update(recurringSchedules)
      .set({ endedAt: now })
      .where(
        and(
          eq(recurringSchedules.firmId, actor.firmId),
          eq(recurringSchedules.templateId, templateId),
          isNull(recurringSchedules.endedAt),
        ),
      );
    await tx
      .update(tasks)
      .set({ templateId: null })
      .where(and(eq(tasks.firmId, actor.firmId), eq(tasks.templateId, templateId)));
    await recordAudit(tx, actor, {
      action: "template.deleted",
      entityType: "template",
      entityId: templateId,
      before: audited(before),
    });
  });
}

/**
 * The curated library, each entry saying whether the firm already has it or a template of its name.
 * One row per live template of the firm: a firm has tens of them, not thousands.
 */
const libraryMarks = preparedStatement("library_marks_of_firm", (db) =>
  db
    .select({ libraryKey: taskTemplates.libraryKey, name: taskTemplates.name })
    .from(taskTemplates)
    .where(and(eq(taskTemplates.firmId, sql.placeholder("firmId")), isNull(taskTemplates.deletedAt))),
);

export async function listLibrary(options: { db: Database; actor: Actor }): Promise<LibraryTemplateEntry[]> {
  return libraryAsSeenBy(await libraryMarks(options.db).execute({ firmId: options.actor.firmId }));
}

/** Copies a library template into the firm's templates; library templates are not custom ones. */
export async function addFromLibrary(options: { db: Database; actor: Actor; key: string }): Promise<Template> {
  const { db, actor } = options;
  const template = findLibraryTemplate(options.key);
  if (!template) throw new AppError("NOT_FOUND", "Library template not found");
  return db.transaction(async (tx) => {
    await lockFirmAsActor(tx, actor, "templates.create");
    const [existing] = await tx
      .select({ id: taskTemplates.id })
      .from(taskTemplates)
      .where(
        and(
          eq(taskTemplates.firmId, actor.firmId),
          eq(taskTemplates.libraryKey, template.key),
          isNull(taskTemplates.deletedAt),
        ),
      );
    if (existing) throw new AppError("CONFLICT", "This template is already in your templates");
    return insertTemplate(tx, actor, {
      name: template.name,
      description: template.description,
      priority: template.priority,
      frequency: template.frequency,
      isRecurring: template.frequency !== null,
      libraryKey: template.key,
    });
  });
}

async function insertTemplate(
  tx: DbExecutor,
  actor: Actor,
  values: CreateTemplateInput & { libraryKey: string | null },
): Promise<Template> {
  checkDueDateRule(values.dueDateRule ?? null, values.frequency);
  const [row] = await tx
    .insert(taskTemplates)
    .values({
      firmId: actor.firmId,
      name: values.name,
      description: values.description,
      priority: values.priority,
      frequency: values.frequency,
      isRecurring: values.isRecurring,
      libraryKey: values.libraryKey,
      dueDateRule: values.dueDateRule ?? null,
      createdBy: actor.userId,
    })
    .returning();
  if (!row) throw new Error("template insert returned nothing");
  await recordAudit(tx, actor, {
    action: "template.created",
    entityType: "template",
    entityId: row.id,
    after: { ...audited(row), libraryKey: row.libraryKey },
  });
  return toTemplate(row);
}

async function findTemplate(tx: DbExecutor, firmId: string, templateId: string): Promise<TemplateRow> {
  const [row] = await tx
    .select()
    .from(taskTemplates)
    .where(and(eq(taskTemplates.firmId, firmId), eq(taskTemplates.id, templateId), isNull(taskTemplates.deletedAt)));
  if (!row) throw new AppError("NOT_FOUND", "Task template not found");
  return row;
}

/** Custom templates (not added from the library) count against the plan (S-CONST-21). */
const audited = (row: TemplateRow) => ({
  name: row.name,
  description: row.description,
  priority: row.priority,
  frequency: row.frequency,
  dueDateRule: row.dueDateRule,
});

/** Refuses a rule Tendwell does not know, or one whose periods the template's frequency does not match. */
function checkDueDateRule(ruleId: string | null, frequency: TemplateRow["frequency"]): void {
  if (ruleId === null) return;
  const rule = dueDateRule(ruleId);
  if (!rule) throw fieldError("dueDateRule", `Unknown due date rule "${ruleId}": GET /api/due-date-rules lists them`);
  const needed = templateFrequencyOf(rule);
  if (frequency !== needed) {
    throw fieldError(
      "dueDateRule",
      `${rule.id} gives one date per ${rule.period.noun}: a template following it must recur ${needed}`,
    );
  }
}

function toTemplate(row: Pick<TemplateRow, keyof typeof templateColumns>): Template {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    priority: row.priority,
    isRecurring: row.isRecurring,
    frequency: row.frequency,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    libraryKey: row.libraryKey,
    dueDateRule: row.dueDateRule,
    version: row.version,
  };
}
