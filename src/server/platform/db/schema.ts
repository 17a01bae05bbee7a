import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  pgView,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { v7 as uuidv7 } from "uuid";
import {
  delimiters,
  duplicateChoices,
  fileEncodings,
  type ImportMapping,
  type ImportRowError,
  importStatuses,
} from "../../../shared/client-import";
import { clientStatuses, entityTypes, taxJurisdictions } from "../../../shared/clients";
import { dueDateChangeReasons, dueDateOverrides, taskDueDateFields } from "../../../shared/due-dates";
import { mailKinds, mailStatuses } from "../../../shared/mail-outbox";
import { factorKinds, MFA_GRACE_DAYS, mfaPolicies } from "../../../shared/mfa";
import { digestFrequencies } from "../../../shared/notifications";
import { planIds, subscriptionStatuses } from "../../../shared/plans";
import { roles } from "../../../shared/roles";
import { frequencies, storedTaskStatuses, taskPriorities } from "../../../shared/tasks";

/*
 * Tenancy: every business table carries firm_id, leads its indexes with it, and references other
 * tenant rows through (firm_id, id) pairs, so the database itself refuses a row that points into
 * another firm. Ids are UUID v7 made by the server (S-API-36).
 */

const id = () =>
  uuid("id")
    .primaryKey()
    .$defaultFn(() => uuidv7());
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
/**
 * The version of an editable row, its ETag (decision 0030): the database adds one whenever a field
 * a person edits changes (the row_version triggers of migration 0009), and never otherwise.
 */
const version = () => integer("version").notNull().default(1);
const firmId = () =>
  uuid("firm_id")
    .notNull()
    .references((): AnyPgColumn => firms.id);

/*
 * What a search reads, as one text per row: the searched fields joined by line breaks, so a
 * single trigram index serves every field (decision 0040). A search is still matched field by
 * field; the whole text only narrows the rows the index finds, since each field is a part of it.
 */
export const clientSearchText = (c: { name: AnyPgColumn; industry: AnyPgColumn; status: AnyPgColumn }) =>
  sql`(${c.name} || E'\\n' || coalesce(${c.industry}, '') || E'\\n' || ${c.status})`;
export const taskSearchText = (t: { name: AnyPgColumn; description: AnyPgColumn }) =>
  sql`(${t.name} || E'\\n' || coalesce(${t.description}, ''))`;

/** Binary data: a passkey's public key. */
const bytea = customType<{ data: Uint8Array; driverData: Buffer }>({
  dataType: () => "bytea",
  fromDriver: (value) => new Uint8Array(value),
});

const oneOf = (column: AnyPgColumn, values: readonly string[]) =>
  sql`${column} in (${sql.join(
    values.map((value) => sql.raw(`'${value}'`)),
    sql`, `,
  )})`;

export const firms = pgTable(
  "firms",
  {
    id: id(),
    name: text("name").notNull(),
    plan: text("plan", { enum: planIds }).notNull(),
    trialEndsAt: timestamp("trial_ends_at", { withTimezone: true }).notNull(),
    subscriptionStatus: text("subscription_status", { enum: subscriptionStatuses }).notNull().default("trialing"),
    /** IANA name; due dates and "today" are computed in it. */
    timeZone: text("time_zone").notNull().default("UTC"),
    stripeCustomerId: text("stripe_customer_id").unique(),
    stripeSubscriptionId: text("stripe_subscription_id").unique(),
    /**
     * The head of the firm's audit chain, set with each event in its transaction (recordAudit):
     * its seq and hash. Verification holds the chain against it, so removing the newest events,
     * or rewriting the chain from some event on, shows (docs/design/audit-trail-and-settings.md). Moves only forward
     * (trigger of migration 0008).
     */
    auditHeadSeq: integer("audit_head_seq").notNull().default(0),
    auditHeadHash: text("audit_head_hash"),
    /**
     * Multi-factor sign-in (decision 0044): required, or optional. Required applies from
     * `mfa_required_from` (a new firm: after a grace of seven days); null when optional. The grace
     * is counted in hours: PostgreSQL's days are the session zone's, one hour short or long across
     * a clock change, and the server's zone is not the firm's.
     */
    mfaPolicy: text("mfa_policy", { enum: mfaPolicies }).notNull().default("required"),
    mfaRequiredFrom: timestamp("mfa_required_from", { withTimezone: true }).default(
      sql`now() + make_interval(hours => ${sql.raw(String(MFA_GRACE_DAYS * 24))})`,
    ),
    /**
     * The firm's internal target for statutory work (decision 0053): this many business days
     * before a rule task's due day, the task falls due for the firm; null for none.
     */
    internalTargetDays: smallint("internal_target_days"),
    /** The firm's own closed days ({ date, name }, by date), which internal targets skip. */
    closedDays: jsonb("closed_days").$type<{ date: string; name: string }[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    check("firms_plan_check", oneOf(t.plan, planIds)),
    check("firms_subscription_status_check", oneOf(t.subscriptionStatus, subscriptionStatuses)),
    check("firms_mfa_policy_check", oneOf(t.mfaPolicy, mfaPolicies)),
    check("firms_mfa_required_from_check", sql`(${t.mfaPolicy} = 'required') = (${t.mfaRequiredFrom} is not null)`),
    check("firms_internal_target_days_check", sql`${t.internalTargetDays} between 1 and 60`),
  ],
);

export const users = pgTable(
  "users",
  {
    id: id(),
    firmId: firmId(),
    username: text("username").notNull(),
    email: text("email"),
    fullName: text("full_name").notNull(),
    role: text("role", { enum: roles }).notNull(),
    passwordHash: text("password_hash").notNull(),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    unique("users_firm_id_id_key").on(t.firmId, t.id),
    // Login asks only for a username, so usernames are unique across all firms, ignoring case.
    uniqueIndex("users_username_key").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_key").on(sql`lower(${t.email})`).where(sql`${t.email} is not null`),
    check("users_role_check", oneOf(t.role, roles)),
  ],
);

/** What a WebAuthn challenge was made for: adding a passkey, a second step, a sign-in by passkey alone, a step-up. */
export const webauthnPurposes = ["register", "second_factor", "sign_in", "step_up"] as const;
export type WebauthnPurpose = (typeof webauthnPurposes)[number];

/** A session, or a sign-in waiting for its second factor or for enrolment (decision 0044). */
export const sessionStages = ["active", "second_factor", "enrol"] as const;
export type SessionStage = (typeof sessionStages)[number];

export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    firmId: firmId(),
    userId: uuid("user_id").notNull(),
    /** SHA-256 of the cookie's token, hex; the token itself is never stored. */
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    /**
     * `active`, a session; or a sign-in the password began that waits for the second factor
     * (`second_factor`) or, where the firm requires one the user has not got, for enrolment
     * (`enrol`): it reaches only the second step's routes and lasts five minutes (decision 0044).
     */
    stage: text("stage", { enum: sessionStages }).notNull().default("active"),
    /** When this session last passed a second factor; null: the password alone made it. */
    secondFactorAt: timestamp("second_factor_at", { withTimezone: true }),
    /** When a password-only session must pass a second factor (the firm's policy); null: never. */
    secondFactorDueAt: timestamp("second_factor_due_at", { withTimezone: true }),
    /** The last fresh proof (password or factor): a step-up counts for five minutes after it. */
    verifiedAt: timestamp("verified_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("sessions_stage_check", oneOf(t.stage, sessionStages)),
    foreignKey({
      name: "sessions_user_fk",
      columns: [t.firmId, t.userId],
      foreignColumns: [users.firmId, users.id],
    }).onDelete("cascade"),
    index("sessions_firm_id_user_id_idx").on(t.firmId, t.userId),
    index("sessions_expires_at_idx").on(t.expiresAt),
  ],
);

/**
 * A user's second factors (decision 0044). An authenticator app's shared secret is sealed
 * (platform/sealed-secrets.ts, the owner `totp:<factor id>`); the step of its last accepted code
 * is kept, so a code works once. A factor being added has no `confirmed_at` until a first code
 * proves it; until then it counts for nothing.
 */
export const userFactors = pgTable(
  "user_factors",
  {
    id: id(),
    firmId: firmId(),
    userId: uuid("user_id").notNull(),
    kind: text("kind", { enum: factorKinds }).notNull(),
    name: text("name").notNull(),
    totpSecret: text("totp_secret"),
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    /** A passkey's credential id (base64url), its COSE public key, signature counter and transports. */
    credentialId: text("credential_id"),
    publicKey: bytea("public_key"),
    signCount: bigint("sign_count", { mode: "number" }),
    transports: text("transports").array(),
    createdAt: createdAt(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    check("user_factors_kind_check", oneOf(t.kind, factorKinds)),
    check("user_factors_totp_check", sql`(${t.kind} = 'totp') = (${t.totpSecret} is not null)`),
    check(
      "user_factors_passkey_check",
      sql`(${t.kind} = 'passkey') = (${t.credentialId} is not null and ${t.publicKey} is not null and ${t.signCount} is not null)`,
    ),
    // A credential belongs to one user: the sign-in by passkey alone finds its user by it.
    uniqueIndex("user_factors_credential_id_key").on(t.credentialId),
    foreignKey({
      name: "user_factors_user_fk",
      columns: [t.firmId, t.userId],
      foreignColumns: [users.firmId, users.id],
    }).onDelete("cascade"),
    index("user_factors_firm_id_user_id_idx").on(t.firmId, t.userId),
  ],
);

/**
 * A WebAuthn ceremony's challenge (decision 0044), kept from the options the browser is given to
 * the answer it signs, and used once; its id travels in a short-lived cookie. A sign-in by passkey
 * alone begins before any firm or user is known, so these rows name none that the app could
 * confuse with a firm's data: a purpose, the user it was made for (when known) and a random
 * challenge. No firm id: rows of no firm are no tenant data.
 */
export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    id: id(),
    challenge: text("challenge").notNull(),
    purpose: text("purpose", { enum: webauthnPurposes }).notNull(),
    userId: uuid("user_id"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    check("webauthn_challenges_purpose_check", oneOf(t.purpose, webauthnPurposes)),
    index("webauthn_challenges_expires_at_idx").on(t.expiresAt),
  ],
);

/** A user's recovery codes: SHA-256 of each (80 random bits), used once (decision 0044). */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    firmId: firmId(),
    userId: uuid("user_id").notNull(),
    codeHash: text("code_hash").notNull(),
    createdAt: createdAt(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: "recovery_codes_pkey", columns: [t.firmId, t.userId, t.codeHash] }),
    foreignKey({
      name: "recovery_codes_user_fk",
      columns: [t.firmId, t.userId],
      foreignColumns: [users.firmId, users.id],
    }).onDelete("cascade"),
  ],
);

/**
 * A user's calendar feed (decision 0047), one at most. Its address's secret is kept twice: as its
 * SHA-256 (hex), which the feed's route looks it up by, and sealed (platform/sealed-secrets.ts, the
 * owner `calendar-feed:<feed id>`), so that Settings can show the address again. Replacing the
 * address replaces both; turning the feed off deletes the row.
 */
export const calendarFeeds = pgTable(
  "calendar_feeds",
  {
    id: id(),
    firmId: firmId(),
    userId: uuid("user_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    tokenSealed: text("token_sealed").notNull(),
    /** Private mode: the events name tasks only, never their clients. */
    hideClientNames: boolean("hide_client_names").notNull().default(false),
    createdAt: createdAt(),
    /** When the current address was made: the feed's creation, or the last replacement. */
    addressCreatedAt: timestamp("address_created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The feed's route finds a feed by its secret alone, before any firm is known (firm_of_calendar_feed).
    uniqueIndex("calendar_feeds_token_hash_key").on(t.tokenHash),
    uniqueIndex("calendar_feeds_firm_id_user_id_key").on(t.firmId, t.userId),
    foreignKey({
      name: "calendar_feeds_user_fk",
      columns: [t.firmId, t.userId],
      foreignColumns: [users.firmId, users.id],
    }).onDelete("cascade"),
  ],
);

const clientFields = {
  id: id(),
  firmId: firmId(),
  name: text("name").notNull(),
  industry: text("industry"),
  address: text("address"),
  phone: text("phone"),
  email: text("email"),
  status: text("status", { enum: clientStatuses }).notNull().default("active"),
  /** Clients with signed-off work are archived, never deleted (docs/design/client-work-api.md). */
  archivedAt: timestamp("archived_at", { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  version: version(),
};

export const clients = pgTable(
  "clients",
  {
    ...clientFields,
    // What statutory due dates need to know (decision 0053); not in firm_clients, which the list reads.
    /** MM-DD, the last day of the client's tax year ("12-31"). */
    fiscalYearEnd: text("fiscal_year_end"),
    entityType: text("entity_type", { enum: entityTypes }),
    jurisdiction: text("jurisdiction", { enum: taxJurisdictions }),
    /** A US client's state, as its postal code. */
    state: text("state"),
  },
  (t) => [
    unique("clients_firm_id_id_key").on(t.firmId, t.id),
    // The list's order and its keyset pages: name, then id.
    index("clients_firm_id_name_idx").on(t.firmId, t.name, t.id),
    // "Is this name taken" before a create (S-EDGE-04): an exact lookup ignoring case.
    index("clients_firm_id_lower_name_idx").on(t.firmId, sql`lower(${t.name})`),
    // The search (ILIKE '%…%' on name, industry and status) by trigrams: one index over the three
    // fields, so a search is one index scan (decision 0040). Read through firm_clients only.
    index("clients_search_idx").using("gin", sql`${clientSearchText(t)} gin_trgm_ops`),
    check("clients_status_check", oneOf(t.status, clientStatuses)),
    check(
      "clients_fiscal_year_end_check",
      sql`${t.fiscalYearEnd} is null or ${t.fiscalYearEnd} ~ '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$'`,
    ),
    check("clients_entity_type_check", sql`${t.entityType} is null or ${oneOf(t.entityType, entityTypes)}`),
    check("clients_jurisdiction_check", sql`${t.jurisdiction} is null or ${oneOf(t.jurisdiction, taxJurisdictions)}`),
    // A state only for a US client, as two capital letters.
    check("clients_state_check", sql`${t.state} is null or (${t.jurisdiction} = 'US' and ${t.state} ~ '^[A-Z]{2}$')`),
  ],
);

export const contacts = pgTable(
  "contacts",
  {
    id: id(),
    firmId: firmId(),
    clientId: uuid("client_id").notNull(),
    name: text("name").notNull(),
    title: text("title"),
    phone: text("phone"),
    email: text("email"),
    isPrimary: boolean("is_primary").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [
    foreignKey({
      name: "contacts_client_fk",
      columns: [t.firmId, t.clientId],
      foreignColumns: [clients.firmId, clients.id],
    }),
    index("contacts_firm_id_client_id_idx").on(t.firmId, t.clientId),
    uniqueIndex("contacts_one_primary_per_client").on(t.firmId, t.clientId).where(sql`${t.isPrimary}`),
  ],
);

export const taskTemplates = pgTable(
  "task_templates",
  {
    id: id(),
    firmId: firmId(),
    name: text("name").notNull(),
    description: text("description").notNull(),
    priority: text("priority", { enum: taskPriorities }).notNull().default("medium"),
    isRecurring: boolean("is_recurring").notNull().default(false),
    frequency: text("frequency", { enum: frequencies }),
    /** Key of the curated library template this was added from, if any. */
    libraryKey: text("library_key"),
    /** The statutory due-date rule its tasks fall due by (decision 0053), such as us-1040; null: the period's end. */
    dueDateRule: text("due_date_rule"),
    createdBy: uuid("created_by").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
    /** Deleting a template hides it; tasks made from it keep their link. */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    unique("task_templates_firm_id_id_key").on(t.firmId, t.id),
    foreignKey({
      name: "task_templates_created_by_fk",
      columns: [t.firmId, t.createdBy],
      foreignColumns: [users.firmId, users.id],
    }),
    index("task_templates_firm_id_created_at_idx").on(t.firmId, t.createdAt),
    check("task_templates_priority_check", oneOf(t.priority, taskPriorities)),
    check("task_templates_frequency_check", sql`${t.frequency} is null or ${oneOf(t.frequency, frequencies)}`),
    // A template is recurring exactly when it has a frequency (S-STATE-20).
    check("task_templates_recurring_check", sql`${t.isRecurring} = (${t.frequency} is not null)`),
    // A rule gives one date per period, so only a recurring template carries one.
    check("task_templates_due_date_rule_check", sql`${t.dueDateRule} is null or ${t.frequency} is not null`),
  ],
);

export const recurringSchedules = pgTable(
  "recurring_schedules",
  {
    id: id(),
    firmId: firmId(),
    clientId: uuid("client_id").notNull(),
    templateId: uuid("template_id").notNull(),
    frequency: text("frequency", { enum: frequencies }).notNull(),
    /** The first period starts here; due dates are the ends of periods from this anchor. */
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    /**
     * When the schedule next has work: the end of the last period the scheduler handled (it never
     * recreates a period before this, so deleting a task skips it); for a template with a due-date
     * rule, the day after the next rule period ends, when that period's task is made.
     */
    materializedUntil: timestamp("materialized_until", { withTimezone: true }),
    /** For a template with a due-date rule: the end of the last rule period handled (decision 0053). */
    rulePeriodEnd: date("rule_period_end", { mode: "string" }),
    createdBy: uuid("created_by"),
    createdAt: createdAt(),
  },
  (t) => [
    unique("recurring_schedules_firm_id_id_key").on(t.firmId, t.id),
    unique("recurring_schedules_client_template_key").on(t.firmId, t.clientId, t.templateId),
    foreignKey({
      name: "recurring_schedules_client_fk",
      columns: [t.firmId, t.clientId],
      foreignColumns: [clients.firmId, clients.id],
    }),
    foreignKey({
      name: "recurring_schedules_template_fk",
      columns: [t.firmId, t.templateId],
      foreignColumns: [taskTemplates.firmId, taskTemplates.id],
    }),
    foreignKey({
      name: "recurring_schedules_created_by_fk",
      columns: [t.firmId, t.createdBy],
      foreignColumns: [users.firmId, users.id],
    }),
    check("recurring_schedules_frequency_check", oneOf(t.frequency, frequencies)),
  ],
);

const taskFields = {
  id: id(),
  firmId: firmId(),
  clientId: uuid("client_id").notNull(),
  templateId: uuid("template_id"),
  scheduleId: uuid("schedule_id"),
  name: text("name").notNull(),
  description: text("description"),
  priority: text("priority", { enum: taskPriorities }).notNull().default("medium"),
  status: text("status", { enum: storedTaskStatuses }).notNull().default("pending"),
  dueDate: timestamp("due_date", { withTimezone: true }),
  /** Null when the scheduler made the task. */
  createdBy: uuid("created_by"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  version: version(),
  completedAt: timestamp("completed_at", { withTimezone: true }),
  completedBy: uuid("completed_by"),
  printedName: text("printed_name"),
  /** The drawn signature as a PNG data URL, and its SHA-256 (hex) for tamper evidence. */
  signature: text("signature"),
  signatureSha256: text("signature_sha256"),
  completedIp: text("completed_ip"),
  completedUserAgent: text("completed_user_agent"),
};

export const tasks = pgTable(
  "tasks",
  {
    ...taskFields,
    // A task that follows a statutory due-date rule (decision 0053); not in firm_tasks, which the
    // search reads. `due_date` stays the instant the task falls due: the end of the day it is due
    // (extended_due_on once an extension is filed, else due_on) in the firm's time zone.
    dueDateRule: text("due_date_rule"),
    periodStart: date("period_start", { mode: "string" }),
    periodEnd: date("period_end", { mode: "string" }),
    /** The date the rule counts to, before any move. */
    statutoryDueOn: date("statutory_due_on", { mode: "string" }),
    /** The day the task is due: the statutory date moved by the rule's calendar, or by an override. */
    dueOn: date("due_on", { mode: "string" }),
    /** For a payment that must clear: the last working day on or before due_on. */
    clearByOn: date("clear_by_on", { mode: "string" }),
    /** Set when an extension is filed: the day the task is then due. */
    extendedDueOn: date("extended_due_on", { mode: "string" }),
    extensionFiledAt: timestamp("extension_filed_at", { withTimezone: true }),
    extensionFiledBy: uuid("extension_filed_by"),
    /** How the dates were reached, a sentence each. */
    dueExplanation: jsonb("due_explanation").$type<string[]>(),
    /** The rules' and calendar's versions the dates were worked out on ("rules 2026.1, us-irs 2026.1"). */
    dueDatesVersion: text("due_dates_version"),
    /** Set when a relief or a person, not the rule, set the day the task is due. */
    dueOverride: text("due_override", { enum: dueDateOverrides }),
    /**
     * With the firm's internal target set: the day the firm means the work done by, that many
     * business days before the day the task is due; `due_date` is then the end of this day.
     */
    targetOn: date("target_on", { mode: "string" }),
  },
  (t) => [
    foreignKey({
      name: "tasks_client_fk",
      columns: [t.firmId, t.clientId],
      foreignColumns: [clients.firmId, clients.id],
    }),
    foreignKey({
      name: "tasks_template_fk",
      columns: [t.firmId, t.templateId],
      foreignColumns: [taskTemplates.firmId, taskTemplates.id],
    }),
    foreignKey({
      name: "tasks_schedule_fk",
      columns: [t.firmId, t.scheduleId],
      foreignColumns: [recurringSchedules.firmId, recurringSchedules.id],
    }),
    foreignKey({
      name: "tasks_created_by_fk",
      columns: [t.firmId, t.createdBy],
      foreignColumns: [users.firmId, users.id],
    }),
    foreignKey({
      name: "tasks_completed_by_fk",
      columns: [t.firmId, t.completedBy],
      foreignColumns: [users.firmId, users.id],
    }),
    index("tasks_firm_id_client_id_idx").on(t.firmId, t.clientId),
    // The search (ILIKE '%…%' on name and description) by trigrams (decision 0040).
    index("tasks_search_idx").using("gin", sql`${taskSearchText(t)} gin_trgm_ops`),
    // A client's open tasks by due date, so its earliest open due date (kept in
    // client_task_counts) and its overdue work are a seek each (decision 0036). Open tasks only:
    // the statements that read it say `status = 'pending'`, and it stays small.
    index("tasks_firm_id_client_id_pending_due_date_idx")
      .on(t.firmId, t.clientId, t.dueDate)
      .where(sql`${t.status} = 'pending'`),
    // Open work by due date in the bell's order (oldest due first, then created, then id): the
    // oldest few overdue tasks are the first entries of the range, however many there are.
    index("tasks_firm_id_status_due_date_created_at_id_idx").on(t.firmId, t.status, t.dueDate, t.createdAt, t.id),
    index("tasks_firm_id_completed_at_idx").on(t.firmId, t.completedAt),
    // A user's sign-offs in completion order: the user audit (docs/design/reports-api.md) and the profile's
    // activity (docs/design/people-screens.md). It carries every column their figures read, so a user's
    // completions of a range are an index-only scan. Sign-offs only.
    index("tasks_firm_id_completed_by_sign_offs_idx")
      .on(t.firmId, t.completedBy, t.completedAt, t.dueDate, t.createdAt, t.clientId, t.priority)
      .where(sql`${t.completedBy} is not null`),
    // The audit list's order (decision 0011), so a page is read in order and a cursor is a seek.
    // Its keys are CASE expressions, not coalesce: under row-level security only a condition
    // PostgreSQL knows cannot leak may be an index condition, and it counts CASE among those but
    // not coalesce (decision 0039). The queries spell the keys the same way (auditKey).
    index("tasks_firm_id_audit_order_idx").on(
      t.firmId,
      sql`(case when ${t.completedAt} is null then '-infinity'::timestamptz else ${t.completedAt} end) desc`,
      sql`(case when ${t.dueDate} is null then '-infinity'::timestamptz else ${t.dueDate} end) desc`,
      sql`${t.createdAt} desc`,
      sql`${t.id} desc`,
    ),
    // The scheduler materialises each period once, however often it runs.
    // The scheduler makes each period's task once, however often it runs: a period is its due date,
    // or for a task that follows a rule (whose due date an extension or relief moves) its period's end.
    uniqueIndex("tasks_schedule_due_date_key")
      .on(t.firmId, t.scheduleId, t.dueDate)
      .where(sql`${t.dueDateRule} is null`),
    uniqueIndex("tasks_schedule_period_end_key")
      .on(t.firmId, t.scheduleId, t.periodEnd)
      .where(sql`${t.dueDateRule} is not null`),
    foreignKey({
      name: "tasks_extension_filed_by_fk",
      columns: [t.firmId, t.extensionFiledBy],
      foreignColumns: [users.firmId, users.id],
    }),
    check("tasks_priority_check", oneOf(t.priority, taskPriorities)),
    check("tasks_status_check", oneOf(t.status, storedTaskStatuses)),
    // A completed task always carries its full sign-off; a pending one carries none.
    check(
      "tasks_completion_check",
      sql`(${t.status} = 'completed') = (${t.completedAt} is not null and ${t.completedBy} is not null and ${t.printedName} is not null and ${t.signature} is not null and ${t.signatureSha256} is not null)`,
    ),
    // A rule's task carries its period and dates; any other task none of them.
    check(
      "tasks_due_date_rule_check",
      sql`case when ${t.dueDateRule} is null
      then ${t.periodStart} is null and ${t.periodEnd} is null and ${t.statutoryDueOn} is null and ${t.dueOn} is null
        and ${t.clearByOn} is null and ${t.extendedDueOn} is null and ${t.extensionFiledAt} is null
        and ${t.dueExplanation} is null and ${t.dueDatesVersion} is null
      else ${t.periodStart} is not null and ${t.periodEnd} is not null and ${t.statutoryDueOn} is not null
        and ${t.dueOn} is not null and ${t.dueExplanation} is not null and ${t.dueDatesVersion} is not null
        and ${t.dueDate} is not null end`,
    ),
    // Only a rule's task has an internal target.
    check("tasks_target_on_check", sql`${t.targetOn} is null or ${t.dueDateRule} is not null`),
    // Only a rule's task has its due day overridden.
    check(
      "tasks_due_override_check",
      sql`${t.dueOverride} is null or (${t.dueDateRule} is not null and ${oneOf(t.dueOverride, dueDateOverrides)})`,
    ),
    // Open rule tasks by the versions their dates were worked out on: after an upgrade that brings
    // a holiday calendar's or the rules' new version, those worked out on an older one are found
    // without reading every task (decision 0053).
    index("tasks_open_rule_versions_idx")
      .on(t.firmId, t.dueDatesVersion, t.dueDateRule)
      .where(sql`${t.status} = 'pending' and ${t.dueDateRule} is not null`),
    // An extension is filed by someone at some time, and only then has a date.
    check(
      "tasks_extension_check",
      sql`(${t.extensionFiledAt} is null) = (${t.extendedDueOn} is null) and (${t.extensionFiledBy} is null or ${t.extensionFiledAt} is not null)`,
    ),
  ],
);

/**
 * Every change of a date of a task that follows a rule (decision 0053), appended and never changed
 * (migration 0031 refuses UPDATE and DELETE, as for audit_events): it outlives the task, as the
 * audit trail does. `changed_by` is null when the system changed it.
 */
export const taskDueDateChanges = pgTable(
  "task_due_date_changes",
  {
    id: id(),
    firmId: firmId(),
    taskId: uuid("task_id").notNull(),
    field: text("field", { enum: taskDueDateFields }).notNull(),
    fromOn: date("from_on", { mode: "string" }),
    toOn: date("to_on", { mode: "string" }),
    reason: text("reason", { enum: dueDateChangeReasons }).notNull(),
    ruleId: text("rule_id").notNull(),
    /** The rules' and calendar's versions the new date was worked out on. */
    dueDatesVersion: text("due_dates_version").notNull(),
    /** What a person wrote, or which relief it was. */
    note: text("note"),
    sourceUrl: text("source_url"),
    changedBy: uuid("changed_by"),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A task's log in order; id (v7) breaks ties within a statement.
    index("task_due_date_changes_firm_id_task_id_idx").on(t.firmId, t.taskId, t.changedAt, t.id),
    foreignKey({
      name: "task_due_date_changes_changed_by_fk",
      columns: [t.firmId, t.changedBy],
      foreignColumns: [users.firmId, users.id],
    }),
    check("task_due_date_changes_field_check", oneOf(t.field, taskDueDateFields)),
    check("task_due_date_changes_reason_check", oneOf(t.reason, dueDateChangeReasons)),
  ],
);

/**
 * A disaster relief window the firm recorded (IRC 7508A, decision 0053): deadlines of its clients
 * in the covered states that fall in the window are postponed to `new_due_on`. Kept as recorded:
 * the tasks it moved say so in their logs.
 */
export const disasterReliefs = pgTable(
  "disaster_reliefs",
  {
    id: id(),
    firmId: firmId(),
    name: text("name").notNull(),
    jurisdiction: text("jurisdiction").notNull().default("US"),
    states: text("states").array().notNull(),
    /** The deadlines it postpones, by rule; null for every one (most reliefs postpone them all). */
    ruleIds: text("rule_ids").array(),
    windowStart: date("window_start", { mode: "string" }).notNull(),
    windowEnd: date("window_end", { mode: "string" }).notNull(),
    newDueOn: date("new_due_on", { mode: "string" }).notNull(),
    sourceUrl: text("source_url").notNull(),
    createdBy: uuid("created_by"),
    createdAt: createdAt(),
  },
  (t) => [
    index("disaster_reliefs_firm_id_created_at_idx").on(t.firmId, t.createdAt),
    foreignKey({
      name: "disaster_reliefs_created_by_fk",
      columns: [t.firmId, t.createdBy],
      foreignColumns: [users.firmId, users.id],
    }),
    check("disaster_reliefs_jurisdiction_check", sql`${t.jurisdiction} = 'US'`),
    check("disaster_reliefs_window_check", sql`${t.windowStart} <= ${t.windowEnd} and ${t.windowEnd} < ${t.newDueOn}`),
    check("disaster_reliefs_states_check", sql`cardinality(${t.states}) > 0`),
    check("disaster_reliefs_rule_ids_check", sql`${t.ruleIds} is null or cardinality(${t.ruleIds}) > 0`),
  ],
);

/*
 * The connection's firm's clients and tasks, as the searches read them (migration 0020, decision
 * 0040): exactly the rows the policies allow, read with the rights of the tables' owner, so that
 * a trigram index can serve an ILIKE (under the policies it could not). The migration makes them;
 * the app role may only read them.
 */
export const firmClients = pgView("firm_clients", clientFields).existing();
export const firmTasks = pgView("firm_tasks", taskFields).existing();

export const userClients = pgTable(
  "user_clients",
  {
    firmId: firmId(),
    userId: uuid("user_id").notNull(),
    clientId: uuid("client_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: "user_clients_pkey", columns: [t.firmId, t.userId, t.clientId] }),
    index("user_clients_firm_id_client_id_idx").on(t.firmId, t.clientId),
    foreignKey({
      name: "user_clients_user_fk",
      columns: [t.firmId, t.userId],
      foreignColumns: [users.firmId, users.id],
    }),
    foreignKey({
      name: "user_clients_client_fk",
      columns: [t.firmId, t.clientId],
      foreignColumns: [clients.firmId, clients.id],
    }),
  ],
);

/**
 * How many tasks each client has, how many are signed off, and when its earliest open task falls
 * due, kept by triggers on tasks (migrations 0004 and 0017), so a `user`'s dashboard adds up one
 * row per assigned client instead of counting tasks.
 */
export const clientTaskCounts = pgTable(
  "client_task_counts",
  {
    firmId: firmId(),
    clientId: uuid("client_id").notNull(),
    total: integer("total").notNull(),
    completed: integer("completed").notNull(),
    earliestPendingDue: timestamp("earliest_pending_due", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: "client_task_counts_pkey", columns: [t.firmId, t.clientId] }),
    foreignKey({
      name: "client_task_counts_client_fk",
      columns: [t.firmId, t.clientId],
      foreignColumns: [clients.firmId, clients.id],
    }).onDelete("cascade"),
  ],
);

/**
 * The firm's dashboard figures that do not move with the clock, over its live (not archived)
 * clients: clients by status, tasks and signed-off tasks. Kept by triggers on clients and tasks
 * (migration 0017, decision 0036), so the dashboard reads one row however large the firm.
 */
export const firmWorkCounts = pgTable("firm_work_counts", {
  firmId: firmId().primaryKey(),
  clientsActive: integer("clients_active").notNull().default(0),
  clientsInactive: integer("clients_inactive").notNull().default(0),
  clientsProspect: integer("clients_prospect").notNull().default(0),
  tasksTotal: integer("tasks_total").notNull().default(0),
  tasksCompleted: integer("tasks_completed").notNull().default(0),
});

/**
 * The firm's open work by due date, over its live clients: how many open tasks fall due at each
 * instant, and how many clients have their earliest open task then. Overdue moves with the clock,
 * so it is not kept; it is the sum of the rows due before now (decision 0036): one row per distinct
 * due date with open work, not one per task. Kept by the same triggers as firm_work_counts.
 */
export const pendingDueCounts = pgTable(
  "pending_due_counts",
  {
    firmId: firmId(),
    dueDate: timestamp("due_date", { withTimezone: true }).notNull(),
    tasks: integer("tasks").notNull(),
    clients: integer("clients").notNull(),
  },
  (t) => [primaryKey({ name: "pending_due_counts_pkey", columns: [t.firmId, t.dueDate] })],
);

/**
 * Each user's sign-offs per local day of the firm's zone and priority: how many, how many by their
 * due date, how many had one, and the seconds from creation to completion they took in all. Kept by
 * triggers on tasks (decision 0041), so a user's figures over a range add up at most a row per day
 * and priority, however many tasks were signed off. Rebuilt for a firm when its zone changes.
 */
export const userCompletionDays = pgTable(
  "user_completion_days",
  {
    firmId: firmId(),
    userId: uuid("user_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    priority: text("priority", { enum: taskPriorities }).notNull(),
    completed: integer("completed").notNull(),
    onTime: integer("on_time").notNull(),
    withDue: integer("with_due").notNull(),
    seconds: numeric("seconds").notNull(),
  },
  (t) => [
    primaryKey({ name: "user_completion_days_pkey", columns: [t.firmId, t.userId, t.day, t.priority] }),
    foreignKey({
      name: "user_completion_days_user_fk",
      columns: [t.firmId, t.userId],
      foreignColumns: [users.firmId, users.id],
    }).onDelete("cascade"),
  ],
);

/**
 * A user's report windows (the last 7, 30, 90 and 365 days) as of a local day `as_of`: their
 * days before it, [as_of - days + 1, as_of - 1], with how many clients had a sign-off then. Made by
 * the first report on the user and moved forward by the first one of each later day (decision
 * 0041); today's sign-offs are read live beside them.
 */
export const userReportWindows = pgTable(
  "user_report_windows",
  {
    firmId: firmId(),
    userId: uuid("user_id").notNull(),
    days: integer("days").notNull(),
    asOf: date("as_of", { mode: "string" }).notNull(),
    clientsServed: integer("clients_served").notNull(),
  },
  (t) => [
    primaryKey({ name: "user_report_windows_pkey", columns: [t.firmId, t.userId, t.days] }),
    foreignKey({
      name: "user_report_windows_user_fk",
      columns: [t.firmId, t.userId],
      foreignColumns: [users.firmId, users.id],
    }).onDelete("cascade"),
  ],
);

/**
 * Per report window of a user, each client with sign-offs in it: how many, and how many of them by
 * their due date among those with one. The client's name is kept beside them (a trigger on clients
 * follows a rename), so the breakdown's top 20 are the first entries of one index in its order.
 */
export const userReportClients = pgTable(
  "user_report_clients",
  {
    firmId: firmId(),
    userId: uuid("user_id").notNull(),
    days: integer("days").notNull(),
    clientId: uuid("client_id").notNull(),
    clientName: text("client_name").notNull(),
    completed: integer("completed").notNull(),
    onTime: integer("on_time").notNull(),
    withDue: integer("with_due").notNull(),
  },
  (t) => [
    primaryKey({ name: "user_report_clients_pkey", columns: [t.firmId, t.userId, t.days, t.clientId] }),
    index("user_report_clients_top_idx").on(
      t.firmId,
      t.userId,
      t.days,
      sql`${t.completed} desc`,
      t.clientName,
      t.clientId,
    ),
    // A rename reaches every user's rows of the client.
    index("user_report_clients_firm_id_client_id_idx").on(t.firmId, t.clientId),
    foreignKey({
      name: "user_report_clients_window_fk",
      columns: [t.firmId, t.userId, t.days],
      foreignColumns: [userReportWindows.firmId, userReportWindows.userId, userReportWindows.days],
    }).onDelete("cascade"),
    foreignKey({
      name: "user_report_clients_client_fk",
      columns: [t.firmId, t.clientId],
      foreignColumns: [clients.firmId, clients.id],
    }),
  ],
);

/** The vendor's articles (not tenant data), upserted from content/blog at start. */
export const blogPosts = pgTable("blog_posts", {
  id: id(),
  slug: text("slug").notNull().unique(),
  title: text("title").notNull(),
  introSummary: text("intro_summary").notNull(),
  fullContent: text("full_content").notNull(),
  featuredImage: text("featured_image").notNull(),
  seoKeywords: text("seo_keywords").array().notNull().default(sql`'{}'::text[]`),
  metaDescription: text("meta_description").notNull(),
  publishedAt: timestamp("published_at", { withTimezone: true }).notNull(),
  updatedAt: updatedAt(),
});

/**
 * Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE) and hash-chained per firm: each row's hash
 * covers its content and the previous row's hash, so a gap or an edit is detectable.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: id(),
    firmId: firmId(),
    seq: bigint("seq", { mode: "number" }).notNull(),
    actorUserId: uuid("actor_user_id"),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: uuid("entity_id"),
    before: jsonb("before"),
    after: jsonb("after"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    prevHash: text("prev_hash"),
    hash: text("hash").notNull(),
  },
  (t) => [
    unique("audit_events_firm_id_seq_key").on(t.firmId, t.seq),
    // The audit trail's filters, each walked newest first by seq (docs/design/audit-trail-and-settings.md).
    index("audit_events_firm_id_entity_type_seq_idx").on(t.firmId, t.entityType, t.seq),
    index("audit_events_firm_id_entity_id_seq_idx").on(t.firmId, t.entityId, t.seq),
    index("audit_events_firm_id_actor_user_id_seq_idx").on(t.firmId, t.actorUserId, t.seq),
    index("audit_events_firm_id_created_at_seq_idx").on(t.firmId, t.createdAt, t.seq),
    foreignKey({
      name: "audit_events_actor_fk",
      columns: [t.firmId, t.actorUserId],
      foreignColumns: [users.firmId, users.id],
    }),
  ],
);

/**
 * The verified checkpoint of a firm's audit chain (decision 0037): every event up to `seq` was found
 * intact, the one at `seq` hashing to `hash`, by a walk that ended at `verifiedAt`. The quick check
 * starts there instead of at the first event, so it reads only what was appended since. It moves
 * only forward (trigger of its migration) and the app role may not delete it, so neither a bug nor
 * that role can set it back to have events re-judged against a chain of its choosing. It vouches
 * for the events before it only as they were when verified: one of them tampered with later is
 * found by a full re-verification, not by the quick check.
 */
export const auditCheckpoints = pgTable("audit_checkpoints", {
  firmId: uuid("firm_id")
    .primaryKey()
    .references((): AnyPgColumn => firms.id),
  seq: bigint("seq", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
  verifiedAt: timestamp("verified_at", { withTimezone: true }).notNull(),
});

/** Failed sign-ins, counted per username and per IP across all app instances (decision 0005). */
export const loginFailures = pgTable(
  "login_failures",
  {
    id: id(),
    usernameKey: text("username_key").notNull(),
    ip: text("ip").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("login_failures_username_key_created_at_idx").on(t.usernameKey, t.createdAt),
    index("login_failures_ip_created_at_idx").on(t.ip, t.createdAt),
  ],
);

/**
 * A card setup started at onboarding's payment step, before the firm exists (decision 0025): the
 * Stripe customer and trial subscription made for it, claimable once by the browser holding the
 * token (its SHA-256 is kept, never the token) when it registers with the same email and plan.
 */
export const billingSetups = pgTable(
  "billing_setups",
  {
    id: id(),
    /** SHA-256 of the setup cookie's token, hex. */
    tokenHash: text("token_hash").notNull().unique(),
    email: text("email").notNull(),
    /** The name the Stripe customer was made with: a later visit with another name gets a new one. */
    fullName: text("full_name").notNull(),
    plan: text("plan", { enum: planIds }).notNull(),
    stripeCustomerId: text("stripe_customer_id").notNull(),
    stripeSubscriptionId: text("stripe_subscription_id").notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Set when a registration links its firm to this setup: one use only. */
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    firmId: uuid("firm_id").references((): AnyPgColumn => firms.id),
  },
  (t) => [
    check("billing_setups_plan_check", oneOf(t.plan, planIds)),
    index("billing_setups_expires_at_idx").on(t.expiresAt),
  ],
);

export const stripeEventOutcomes = ["applied", "ignored", "stale"] as const;

/**
 * Every Stripe webhook event received, by Stripe's event id, so a replayed or retried event is
 * never applied twice, and an event older than the last one applied to its subscription is not
 * applied over it (Stripe does not promise delivery order).
 */
export const stripeEvents = pgTable(
  "stripe_events",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    stripeSubscriptionId: text("stripe_subscription_id"),
    /** When Stripe created the event (its `created`). */
    stripeCreatedAt: timestamp("stripe_created_at", { withTimezone: true }).notNull(),
    outcome: text("outcome", { enum: stripeEventOutcomes }).notNull(),
    firmId: uuid("firm_id").references((): AnyPgColumn => firms.id),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("stripe_events_outcome_check", oneOf(t.outcome, stripeEventOutcomes)),
    index("stripe_events_subscription_created_idx").on(t.stripeSubscriptionId, t.stripeCreatedAt),
  ],
);

/**
 * The answers of create requests sent with an `Idempotency-Key` (decision 0030), kept 24 hours
 * per firm: a retry with the same key and request is answered from here instead of creating again.
 * A row without a response is a request still running (or one whose process died: after
 * `started_at` + the lease, a retry may take it over).
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    firmId: uuid("firm_id")
      .notNull()
      .references((): AnyPgColumn => firms.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** SHA-256 of the method, route, path parameters, user and body: the request the key belongs to. */
    fingerprint: text("fingerprint").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the request's write committed: set in the same transaction as the write itself. */
    committedAt: timestamp("committed_at", { withTimezone: true }),
    responseStatus: integer("response_status"),
    /** The answer's JSON text, sent again as it was. */
    responseBody: text("response_body"),
    responseEtag: text("response_etag"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: "idempotency_keys_pkey", columns: [t.firmId, t.key] }),
    index("idempotency_keys_created_at_idx").on(t.createdAt),
  ],
);

/**
 * Every e-mail the app sends, written in the same transaction as the change it tells of, then
 * delivered by the deliver-mail job (decision 0049). `dedupe_key` names the message among its
 * firm's, so a change retried writes it once. `status`: pending (waiting for its next try),
 * sending (taken by a delivery: never taken again, so a crash mid-send cannot send it twice),
 * sent, kept (no SMTP server configured: written to the log only), failed (refused for good, or
 * out of tries).
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: id(),
    firmId: firmId(),
    userId: uuid("user_id").notNull(),
    dedupeKey: text("dedupe_key").notNull(),
    kind: text("kind", { enum: mailKinds }).notNull(),
    toAddress: text("to_address").notNull(),
    toName: text("to_name").notNull(),
    senderName: text("sender_name").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    unsubscribeUrl: text("unsubscribe_url"),
    status: text("status", { enum: mailStatuses }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    createdAt: createdAt(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (t) => [
    check("mail_outbox_kind_check", oneOf(t.kind, mailKinds)),
    check("mail_outbox_status_check", oneOf(t.status, mailStatuses)),
    uniqueIndex("mail_outbox_firm_id_dedupe_key_key").on(t.firmId, t.dedupeKey),
    // The delivery's question, across firms: what is waiting and due.
    index("mail_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // Settings' list of the firm's mail, newest first (keyset paging on created_at, id).
    index("mail_outbox_firm_id_created_at_id_idx").on(t.firmId, t.createdAt, t.id),
    // Housekeeping's question, across firms: what was settled long enough ago (decision 0049).
    index("mail_outbox_settled_idx").on(t.settledAt).where(sql`${t.status} in ('sent', 'kept', 'failed')`),
    foreignKey({
      name: "mail_outbox_user_fk",
      columns: [t.firmId, t.userId],
      foreignColumns: [users.firmId, users.id],
    }).onDelete("cascade"),
  ],
);

/**
 * A user's choices of e-mail (decisions 0050, 0052); no row reads as the defaults of
 * src/shared/notifications.ts. `due_soon_days` null: no due-soon reminders.
 */
export const notificationPreferences = pgTable(
  "notification_preferences",
  {
    firmId: firmId(),
    userId: uuid("user_id").notNull(),
    dueSoonDays: integer("due_soon_days"),
    overdueAlerts: boolean("overdue_alerts").notNull().default(true),
    digest: text("digest", { enum: digestFrequencies }).notNull().default("off"),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ name: "notification_preferences_pkey", columns: [t.firmId, t.userId] }),
    check("notification_preferences_due_soon_days_check", sql`${t.dueSoonDays} between 1 and 14`),
    check("notification_preferences_digest_check", oneOf(t.digest, digestFrequencies)),
    foreignKey({
      name: "notification_preferences_user_fk",
      columns: [t.firmId, t.userId],
      foreignColumns: [users.firmId, users.id],
    }).onDelete("cascade"),
  ],
);

/**
 * Each firm's morning of reminders, by its local date (decision 0050): the first delivery sweep
 * after the firm's morning hour writes the row and queues that morning's messages; every later
 * sweep of the day, on any instance, finds the row and does nothing.
 */
export const morningMailRuns = pgTable(
  "morning_mail_runs",
  {
    firmId: firmId(),
    localDate: date("local_date", { mode: "string" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "morning_mail_runs_pkey", columns: [t.firmId, t.localDate] })],
);

/**
 * The browsers each user has signed in from (decision 0052): a long-lived cookie names the
 * device, kept here as its SHA-256. A completed sign-in from a device not listed, by a user who
 * has signed in before, sends them a security notice.
 */
export const userDevices = pgTable(
  "user_devices",
  {
    firmId: firmId(),
    userId: uuid("user_id").notNull(),
    deviceHash: text("device_hash").notNull(),
    userAgent: text("user_agent").notNull(),
    firstSeenAt: timestamp("first_seen_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "user_devices_pkey", columns: [t.firmId, t.userId, t.deviceHash] }),
    foreignKey({
      name: "user_devices_user_fk",
      columns: [t.firmId, t.userId],
      foreignColumns: [users.firmId, users.id],
    }).onDelete("cascade"),
  ],
);

/**
 * A client import from CSV (decision 0051): the file as read (its encoding, delimiter and
 * headers), the mapping of its columns, the choice for duplicates, where the commit has got to,
 * and its counts. `status` moves previewed → queued → running → done (or failed), then undone.
 */
export const clientImports = pgTable(
  "client_imports",
  {
    id: id(),
    firmId: firmId(),
    createdBy: uuid("created_by").notNull(),
    fileName: text("file_name").notNull(),
    encoding: text("encoding", { enum: fileEncodings }).notNull(),
    delimiter: text("delimiter", { enum: delimiters }).notNull(),
    headers: jsonb("headers").$type<string[]>().notNull(),
    headerSignature: text("header_signature").notNull(),
    mapping: jsonb("mapping").$type<ImportMapping>().notNull(),
    status: text("status", { enum: importStatuses }).notNull().default("previewed"),
    duplicates: text("duplicates", { enum: duplicateChoices }),
    rowCount: integer("row_count").notNull(),
    errorCount: integer("error_count").notNull().default(0),
    duplicateCount: integer("duplicate_count").notNull().default(0),
    createdCount: integer("created_count").notNull().default(0),
    updatedCount: integer("updated_count").notNull().default(0),
    skippedCount: integer("skipped_count").notNull().default(0),
    /** Rows the commit has worked through, moved once per batch in a transaction of its own. */
    progress: integer("progress").notNull().default(0),
    /** Once an undo is asked for (`undo_requested_at`): changes it has taken back, and what became of their clients. */
    undoRequestedAt: timestamp("undo_requested_at", { withTimezone: true }),
    undoProgress: integer("undo_progress").notNull().default(0),
    removedCount: integer("removed_count").notNull().default(0),
    archivedCount: integer("archived_count").notNull().default(0),
    restoredCount: integer("restored_count").notNull().default(0),
    keptCount: integer("kept_count").notNull().default(0),
    error: text("error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    undoneAt: timestamp("undone_at", { withTimezone: true }),
  },
  (t) => [
    unique("client_imports_firm_id_id_key").on(t.firmId, t.id),
    index("client_imports_firm_id_created_at_idx").on(t.firmId, t.createdAt),
    check("client_imports_status_check", oneOf(t.status, importStatuses)),
    check("client_imports_encoding_check", oneOf(t.encoding, fileEncodings)),
    check("client_imports_duplicates_check", oneOf(t.duplicates, duplicateChoices)),
    foreignKey({
      name: "client_imports_created_by_fk",
      columns: [t.firmId, t.createdBy],
      foreignColumns: [users.firmId, users.id],
    }).onDelete("cascade"),
  ],
);

/**
 * An import's rows as read from its file, kept for the preview's pages and the commit: the cells,
 * the row's errors under the current mapping, the client it matches, and, once committed, what is
 * done with it (`action`) and whether the job has done it (`done`).
 */
export const clientImportRows = pgTable(
  "client_import_rows",
  {
    firmId: firmId(),
    importId: uuid("import_id").notNull(),
    rowNumber: integer("row_number").notNull(),
    cells: jsonb("cells").$type<string[]>().notNull(),
    errors: jsonb("errors").$type<ImportRowError[]>().notNull(),
    matchClientId: uuid("match_client_id"),
    matchName: text("match_name"),
    matchBy: text("match_by", { enum: ["name", "email"] }),
    action: text("action", { enum: ["create", "update", "skip"] }),
    done: boolean("done").notNull().default(false),
  },
  (t) => [
    primaryKey({ name: "client_import_rows_pkey", columns: [t.firmId, t.importId, t.rowNumber] }),
    foreignKey({
      name: "client_import_rows_import_fk",
      columns: [t.firmId, t.importId],
      foreignColumns: [clientImports.firmId, clientImports.id],
    }).onDelete("cascade"),
  ],
);

/**
 * What an import changed, one row per file row it wrote, so that undo can take it back: the
 * client it created or updated, and for an update the client's and its primary contact's rows as
 * they were before (their before-images), with the versions the import left them at.
 */
export const clientImportChanges = pgTable(
  "client_import_changes",
  {
    firmId: firmId(),
    importId: uuid("import_id").notNull(),
    rowNumber: integer("row_number").notNull(),
    clientId: uuid("client_id").notNull(),
    action: text("action", { enum: ["created", "updated"] }).notNull(),
    clientBefore: jsonb("client_before"),
    clientVersionAfter: integer("client_version_after").notNull(),
    contactId: uuid("contact_id"),
    contactBefore: jsonb("contact_before"),
    contactVersionAfter: integer("contact_version_after"),
    /** Taken back by the undo's job, in a batch of its own. */
    undone: boolean("undone").notNull().default(false),
  },
  (t) => [
    primaryKey({ name: "client_import_changes_pkey", columns: [t.firmId, t.importId, t.rowNumber] }),
    check("client_import_changes_action_check", oneOf(t.action, ["created", "updated"])),
    foreignKey({
      name: "client_import_changes_import_fk",
      columns: [t.firmId, t.importId],
      foreignColumns: [clientImports.firmId, clientImports.id],
    }).onDelete("cascade"),
  ],
);

/** The mapping a firm last used for files with the same headers, offered again for the next. */
export const clientImportMappings = pgTable(
  "client_import_mappings",
  {
    firmId: firmId(),
    headerSignature: text("header_signature").notNull(),
    mapping: jsonb("mapping").$type<ImportMapping>().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ name: "client_import_mappings_pkey", columns: [t.firmId, t.headerSignature] })],
);
