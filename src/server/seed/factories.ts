import { addDays } from "../../shared/dates";
import { type PlanId, trialDays } from "../../shared/plans";
import type { Role } from "../../shared/roles";
import { hashPassword } from "../features/auth/password";
import { endOfDay, parseCivilDate } from "../features/due-dates/civil-date";
import { dueDatesFor } from "../features/due-dates/due-date-engine";
import { dueDateRule } from "../features/due-dates/due-date-rules";
import type { DbExecutor } from "../platform/db/database";
import { clients, contacts, firms, tasks, taskTemplates, userClients, users } from "../platform/db/schema";
import { createRandom, type Random } from "./random";
import { drawSignature } from "./signature-image";

/*
 * One set of factories for the demo seed, the tests and the browser tests. Each inserts real
 * rows through the same schema the app uses and fills what is not given with realistic values.
 */

type FirmRow = typeof firms.$inferSelect;
type UserRow = typeof users.$inferSelect;
type ClientRow = typeof clients.$inferSelect;
type ContactRow = typeof contacts.$inferSelect;
type TemplateRow = typeof taskTemplates.$inferSelect;
type TaskRow = typeof tasks.$inferSelect;

const firstNames = [
  "Amara",
  "Ben",
  "Chloe",
  "Daniel",
  "Elena",
  "Farid",
  "Grace",
  "Hugo",
  "Isla",
  "Jonah",
  "Keiko",
  "Liam",
  "Maya",
  "Noah",
  "Olga",
  "Pedro",
  "Rosa",
  "Samir",
  "Tessa",
  "Victor",
] as const;
const lastNames = [
  "Abbott",
  "Brennan",
  "Castillo",
  "Dubois",
  "Eriksen",
  "Fischer",
  "Gallo",
  "Haddad",
  "Ivanova",
  "Jensen",
  "Kowalski",
  "Lindqvist",
  "Moreau",
  "Novak",
  "Okafor",
  "Patel",
  "Quinn",
  "Rossi",
  "Sato",
  "Walsh",
] as const;
const companyStems = [
  "Harbor",
  "Summit",
  "Cedar",
  "Lakeside",
  "Ironwood",
  "Bluebird",
  "Northgate",
  "Redfern",
  "Silverline",
  "Oakridge",
  "Brightwater",
  "Keystone",
  "Meridian",
  "Pinecrest",
  "Riverbend",
  "Stonebridge",
  "Westfield",
  "Aurora",
] as const;
export const industries = {
  Construction: ["Builders", "Construction Co.", "Contracting"],
  Healthcare: ["Family Dental", "Physical Therapy", "Medical Group"],
  Hospitality: ["Bistro", "Hotel Group", "Catering"],
  Manufacturing: ["Fabrication", "Tool & Die", "Components"],
  Nonprofit: ["Community Trust", "Foundation", "Arts Council"],
  "Professional Services": ["Architects", "Engineering", "Design Studio"],
  "Real Estate": ["Property Management", "Realty", "Holdings"],
  Retail: ["Outfitters", "Home Goods", "Market"],
  Technology: ["Software", "Labs", "Data Systems"],
} as const satisfies Record<string, readonly string[]>;
const streets = [
  "Main Street",
  "Oak Avenue",
  "Harbor Road",
  "Elm Street",
  "Market Street",
  "Park Lane",
  "Mill Road",
  "Church Street",
] as const;
const cities = [
  "Portland, OR 97204",
  "Austin, TX 78701",
  "Denver, CO 80202",
  "Columbus, OH 43215",
  "Raleigh, NC 27601",
  "Madison, WI 53703",
] as const;
const jobTitles = [
  "Owner",
  "CEO",
  "CFO",
  "Controller",
  "Office Manager",
  "Operations Director",
  "Managing Partner",
] as const;

let sequence = 0;
/** Unique within one process run, for usernames and e-mails that must not collide. */
const unique = () => `${Date.now().toString(36)}${(sequence++).toString(36)}`;
const defaultRandom = createRandom(Date.now() % 2_147_483_647);

const personName = (random: Random = defaultRandom) => `${random.pick(firstNames)} ${random.pick(lastNames)}`;
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ".")
    .replace(/^\.|\.$/g, "");
const phone = (random: Random) => `(${random.int(200, 989)}) 555-${String(random.int(100, 9999)).padStart(4, "0")}`;

export async function insertFirm(
  db: DbExecutor,
  values: Partial<typeof firms.$inferInsert> & { plan?: PlanId } = {},
): Promise<FirmRow> {
  const now = new Date();
  const [row] = await db
    .insert(firms)
    .values({
      name: `${defaultRandom.pick(companyStems)} Advisory ${unique()}`,
      plan: "professional",
      trialEndsAt: addDays(now, trialDays),
      ...values,
    })
    .returning();
  return required(row);
}

export async function insertUser(
  db: DbExecutor,
  values: { firmId: string; role?: Role; password?: string; random?: Random } & Partial<
    Omit<typeof users.$inferInsert, "passwordHash">
  >,
): Promise<UserRow & { password: string }> {
  const { password = `pw-${unique()}-secret`, random = defaultRandom, ...rest } = values;
  const fullName = rest.fullName ?? personName(random);
  const username = rest.username ?? `${slug(fullName)}.${unique()}`;
  const [row] = await db
    .insert(users)
    .values({
      role: "user",
      fullName,
      username,
      email: `${username}@example.com`,
      ...rest,
      passwordHash: await hashPassword(password),
    })
    .returning();
  return { ...required(row), password };
}

/** A plausible client company: a name that fits its industry. */
export function companyProfile(random: Random = defaultRandom): { name: string; industry: string } {
  const industry = random.pick(Object.keys(industries) as (keyof typeof industries)[]);
  return { name: `${random.pick(companyStems)} ${random.pick(industries[industry])}`, industry };
}

export async function insertClient(
  db: DbExecutor,
  values: { firmId: string; random?: Random } & Partial<typeof clients.$inferInsert>,
): Promise<ClientRow> {
  const { random = defaultRandom, ...rest } = values;
  const profile = companyProfile(random);
  const name = rest.name ?? profile.name;
  const [row] = await db
    .insert(clients)
    .values({
      name,
      industry: profile.industry,
      address: `${random.int(10, 9800)} ${random.pick(streets)}, ${random.pick(cities)}`,
      phone: phone(random),
      email: `office@${slug(name).replace(/\./g, "")}.example.com`,
      status: "active",
      ...rest,
    })
    .returning();
  return required(row);
}

export async function insertContact(
  db: DbExecutor,
  values: { firmId: string; clientId: string; random?: Random } & Partial<typeof contacts.$inferInsert>,
): Promise<ContactRow> {
  const { random = defaultRandom, ...rest } = values;
  const name = rest.name ?? personName(random);
  const [row] = await db
    .insert(contacts)
    .values({
      name,
      title: random.pick(jobTitles),
      phone: phone(random),
      email: `${slug(name)}@example.com`,
      ...rest,
    })
    .returning();
  return required(row);
}

export async function insertTaskTemplate(
  db: DbExecutor,
  values: { firmId: string; createdBy: string } & Partial<typeof taskTemplates.$inferInsert>,
): Promise<TemplateRow> {
  const [row] = await db
    .insert(taskTemplates)
    .values({
      name: "Monthly bookkeeping close",
      description: "Reconcile bank and card accounts, review uncategorised transactions and send the monthly summary.",
      priority: "medium",
      ...values,
      isRecurring: (values.frequency ?? null) !== null,
    })
    .returning();
  return required(row);
}

/**
 * Inserts a task. With `completed`, it is signed off the way the complete action does it:
 * a drawn signature, its hash, the printed name, the completer, time, IP and user agent.
 */
export async function insertTask(
  db: DbExecutor,
  values: {
    firmId: string;
    clientId: string;
    random?: Random;
    completed?: { by: { id: string; fullName: string }; at?: Date };
  } & Partial<Omit<typeof tasks.$inferInsert, "status" | "completedAt" | "completedBy">>,
): Promise<TaskRow> {
  const { random = defaultRandom, completed, ...rest } = values;
  const signOff = completed && drawSignature(completed.by.fullName, random);
  const [row] = await db
    .insert(tasks)
    .values({
      name: "Quarterly estimated tax review",
      description: "Review year-to-date results and confirm the next estimated payment.",
      priority: "medium",
      ...rest,
      ...(completed && signOff
        ? {
            status: "completed" as const,
            completedAt: completed.at ?? new Date(),
            completedBy: completed.by.id,
            printedName: completed.by.fullName,
            signature: signOff.dataUrl,
            signatureSha256: signOff.sha256,
            completedIp: "203.0.113.10",
            completedUserAgent:
              "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36",
          }
        : { status: "pending" as const }),
    })
    .returning();
  return required(row);
}

/**
 * A pending task that follows a statutory rule (us-1040 by default) for the period ending
 * `periodEnd`, with the dates and explanation the engine gives it, as the scheduler writes it; its
 * due date is the end of its due day in UTC.
 */
export async function insertRuleTask(
  db: DbExecutor,
  values: { firmId: string; clientId: string; ruleId?: string; periodEnd?: string },
): Promise<TaskRow> {
  const { ruleId = "us-1040", periodEnd = "2026-12-31", ...rest } = values;
  const rule = dueDateRule(ruleId);
  const end = parseCivilDate(periodEnd);
  if (!rule || !end) throw new Error(`no rule ${ruleId} or no date ${periodEnd}`);
  const dates = dueDatesFor(rule, { periodEnd });
  return insertTask(db, {
    ...rest,
    name: rule.name,
    dueDateRule: rule.id,
    periodStart: end.add({ days: 1 }).subtract({ months: rule.period.months }).toString(),
    periodEnd,
    statutoryDueOn: dates.statutoryDate.toString(),
    dueOn: dates.dueDate.toString(),
    clearByOn: dates.clearByDate?.toString() ?? null,
    dueExplanation: dates.explanation,
    dueDatesVersion: dates.version,
    dueDate: endOfDay(dates.dueDate, "UTC"),
  });
}

export async function insertUserClients(
  db: DbExecutor,
  values: { firmId: string; userId: string; clientIds: string[] },
): Promise<void> {
  if (values.clientIds.length === 0) return;
  await db
    .insert(userClients)
    .values(values.clientIds.map((clientId) => ({ firmId: values.firmId, userId: values.userId, clientId })));
}

function required<T>(row: T | undefined): T {
  if (row === undefined) throw new Error("insert returned no row");
  return row;
}
