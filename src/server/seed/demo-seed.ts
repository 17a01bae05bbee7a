import { and, asc, count, eq, sql } from "drizzle-orm";
import { addDays } from "../../shared/dates";
import { trialDays } from "../../shared/plans";
import type { Frequency, TaskPriority } from "../../shared/tasks";
import { firmOfUsername } from "../features/auth/auth.service";
import { createSchedule } from "../features/schedules/schedules.service";
import type { Database, DbExecutor } from "../platform/db/database";
import { clients, firms } from "../platform/db/schema";
import {
  companyProfile,
  industries,
  insertClient,
  insertContact,
  insertFirm,
  insertTask,
  insertTaskTemplate,
  insertUser,
  insertUserClients,
} from "./factories";
import { createRandom } from "./random";

/** The demo firm's sign-ins, printed at start and listed in the README. */
export const demoLogins = [
  { username: "olivia.hart", fullName: "Olivia Hart", role: "super_admin" },
  { username: "marcus.chen", fullName: "Marcus Chen", role: "admin" },
  { username: "priya.nair", fullName: "Priya Nair", role: "user" },
] as const;
export const demoPassword = "tendwell-demo";
const DEMO_FIRM_NAME = "Northbridge Advisory Group";
const CLIENT_COUNT = 36;
/** Arbitrary constant naming the advisory lock that keeps two starts from seeding twice. */
const SEED_LOCK_ID = 7_246_731_002;

const demoTemplates: { name: string; description: string; priority: TaskPriority; frequency?: Frequency }[] = [
  {
    name: "Monthly bookkeeping close",
    description:
      "Reconcile bank and card accounts, categorise open transactions and send the monthly financial summary.",
    priority: "high",
    frequency: "monthly",
  },
  {
    name: "Payroll tax deposit check",
    description: "Confirm federal and state payroll tax deposits were made on schedule and match the payroll register.",
    priority: "high",
    frequency: "monthly",
  },
  {
    name: "Quarterly estimated tax review",
    description: "Review year-to-date results with the client and confirm the next estimated tax payment.",
    priority: "medium",
    frequency: "quarterly",
  },
  {
    name: "Sales tax return",
    description: "Prepare and file the sales and use tax return; keep the confirmation with the workpapers.",
    priority: "medium",
    frequency: "quarterly",
  },
  {
    name: "Annual engagement letter renewal",
    description: "Send the renewed engagement letter with this year's scope and fees, and file the signed copy.",
    priority: "medium",
    frequency: "annually",
  },
  {
    name: "Year-end 1099 preparation",
    description: "Collect W-9s, confirm vendor payments over the threshold and issue 1099-NEC forms.",
    priority: "high",
    frequency: "annually",
  },
  {
    name: "Weekly accounts payable run",
    description: "Review bills due this week, get approval and schedule payments.",
    priority: "low",
    frequency: "weekly",
  },
  {
    name: "New client onboarding",
    description: "Collect prior-year returns, set up portal access, confirm contacts and record key deadlines.",
    priority: "high",
  },
  {
    name: "Beneficial ownership report",
    description: "Confirm the owners' details and file or update the beneficial ownership information report.",
    priority: "medium",
  },
  {
    name: "Relationship check-in call",
    description: "Call the primary contact, review satisfaction and upcoming needs, and note follow-ups.",
    priority: "low",
    frequency: "quarterly",
  },
];

/**
 * Creates the demo firm: three users (one per role), three dozen clients with contacts, task
 * templates, and tasks in every state (pending, overdue, completed with a signature).
 * Does nothing when the demo firm is already there. With `onlyIfEmpty`, it also does nothing
 * when any firm exists, so a real workspace never receives demo data.
 */
export async function seedDemoData(
  db: Database,
  options: { now?: Date; onlyIfEmpty?: boolean } = {},
): Promise<boolean> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_ID})`);
    if (options.onlyIfEmpty) {
      const [firmCount] = await tx.select({ n: count() }).from(firms);
      if ((firmCount?.n ?? 0) > 0) return false;
    } else if (await hasDemoData(tx)) {
      return false;
    }

    const random = createRandom(20_260_101);
    const firm = await insertFirm(tx, {
      name: DEMO_FIRM_NAME,
      plan: "professional",
      trialEndsAt: addDays(now, trialDays),
      createdAt: addDays(now, -400),
    });
    const people = [];
    for (const login of demoLogins) {
      people.push(
        await insertUser(tx, {
          firmId: firm.id,
          ...login,
          email: `${login.username}@northbridge.example.com`,
          password: demoPassword,
          createdAt: addDays(now, -400),
        }),
      );
    }
    const [owner, admin, staff] = people as [(typeof people)[number], (typeof people)[number], (typeof people)[number]];

    const templates = [];
    for (const template of demoTemplates) {
      templates.push(
        await insertTaskTemplate(tx, {
          firmId: firm.id,
          createdBy: owner.id,
          ...template,
          createdAt: addDays(now, -170),
        }),
      );
    }

    const servedClients: { id: string; staffServes: boolean }[] = [];
    const names = new Set<string>();
    const industryUses = new Map<string, number>();
    const staffClientIds: string[] = [];
    for (let index = 0; index < CLIENT_COUNT; index++) {
      // The drawn name only keeps the random draws as they were; the client is named below.
      let drawn = companyProfile(random);
      while (names.has(drawn.name)) drawn = companyProfile(random);
      names.add(drawn.name);
      const profile = { ...drawn, name: demoClientName(drawn.industry, index, industryUses) };
      const status = index % 9 === 4 ? "inactive" : index % 7 === 3 ? "prospect" : "active";
      const client = await insertClient(tx, {
        firmId: firm.id,
        random,
        ...profile,
        status,
        createdAt: addDays(now, -160 + index),
      });
      await insertContact(tx, { firmId: firm.id, clientId: client.id, random, isPrimary: true });
      if (random.chance(0.5)) await insertContact(tx, { firmId: firm.id, clientId: client.id, random });
      if (index % 3 === 0) staffClientIds.push(client.id);
      if (client.status === "prospect") continue;
      servedClients.push({ id: client.id, staffServes: index % 3 === 0 });

      const taskCount = random.int(2, 6);
      for (let t = 0; t < taskCount; t++) {
        const template = random.pick(templates);
        const createdAt = addDays(now, -random.int(20, 150));
        const kind = random.pick(["completed", "completed", "pending", "overdue", "open"] as const);
        const base = {
          firmId: firm.id,
          clientId: client.id,
          random,
          templateId: template.id,
          name: template.name,
          description: template.description,
          priority: template.priority,
          createdAt,
          createdBy: admin.id,
        };
        if (kind === "completed") {
          const dueDate = addDays(createdAt, random.int(7, 30));
          const completer = random.pick(index % 3 === 0 ? [owner, admin, staff] : [owner, admin]);
          await insertTask(tx, {
            ...base,
            dueDate,
            // Never in the future: a task due after today was signed off early, a few hours ago at the latest.
            completed: { by: completer, at: earlier(addDays(dueDate, -random.int(-3, 6)), now) },
          });
        } else if (kind === "pending") {
          await insertTask(tx, { ...base, dueDate: addDays(now, random.int(2, 45)) });
        } else if (kind === "overdue") {
          await insertTask(tx, { ...base, dueDate: addDays(now, -random.int(1, 20)) });
        } else {
          await insertTask(tx, { ...base, dueDate: null });
        }
      }
    }
    await insertUserClients(tx, { firmId: firm.id, userId: staff.id, clientIds: staffClientIds });

    // A year of signed-off work for the reports (issue 9): three older tasks per client served,
    // created 150 to 360 days ago, most signed off on time, some late, by each of the three
    // users (the staff member on their own clients). Drawn from a random of its own, so the
    // tasks above stay what they were.
    const history = createRandom(20_261_123);
    for (const client of servedClients) {
      for (let t = 0; t < 3; t++) {
        const template = history.pick(templates);
        const createdAt = addHours(addDays(now, -history.int(150, 360)), -history.int(0, 23));
        const dueDate = addDays(createdAt, history.int(7, 30));
        const completer = history.pick(client.staffServes ? [owner, admin, staff] : [owner, admin]);
        await insertTask(tx, {
          firmId: firm.id,
          clientId: client.id,
          random: history,
          templateId: template.id,
          name: template.name,
          description: template.description,
          priority: template.priority,
          createdAt,
          createdBy: admin.id,
          dueDate,
          completed: { by: completer, at: addHours(dueDate, -history.int(-96, 144)) },
        });
      }
    }

    // Recurring work: some active clients have a recurring template assigned, so the first start
    // shows schedules with this period's task due at its end (decision 0009).
    const recurring = templates.filter((template) => template.frequency !== null);
    const active = await tx
      .select({ id: clients.id })
      .from(clients)
      .where(and(eq(clients.firmId, firm.id), eq(clients.status, "active")))
      .orderBy(asc(clients.createdAt));
    for (const [index, client] of active.entries()) {
      const template = recurring[index % recurring.length];
      if (index % 3 !== 0 || !template?.frequency) continue;
      await createSchedule(tx, {
        firmId: firm.id,
        clientId: client.id,
        templateId: template.id,
        frequency: template.frequency,
        createdBy: admin.id,
        now,
      });
    }
    return true;
  });
}

/*
 * A name of its own for each demo client. The factories draw from few stems and suffixes, so by
 * chance the list showed "Brightwater" four times in a row (and the landing page's screenshots
 * with it). Here each client gets its own stem, and the clients of one industry take turns at
 * its suffixes. Only the name is chosen so: the random draws, and so every other value of the
 * demo firm, stay what they were.
 */
const demoStems = [
  "Harbor",
  "Summit",
  "Alder",
  "Cedar",
  "Beacon",
  "Lakeside",
  "Ironwood",
  "Copperfield",
  "Bluebird",
  "Evergreen",
  "Northgate",
  "Fairview",
  "Redfern",
  "Granite",
  "Silverline",
  "Hawthorne",
  "Oakridge",
  "Juniper",
  "Brightwater",
  "Linden",
  "Keystone",
  "Maplewood",
  "Meridian",
  "Northstar",
  "Pinecrest",
  "Prairie",
  "Riverbend",
  "Quarry",
  "Stonebridge",
  "Sterling",
  "Westfield",
  "Tidewater",
  "Aurora",
  "Willow",
  "Crescent",
  "Larkspur",
];
function demoClientName(industry: string, index: number, industryUses: Map<string, number>): string {
  const turn = industryUses.get(industry) ?? 0;
  industryUses.set(industry, turn + 1);
  const suffixes: readonly string[] = industries[industry as keyof typeof industries];
  return `${demoStems[index % demoStems.length]} ${suffixes[turn % suffixes.length]}`;
}

const addHours = (date: Date, hours: number) => new Date(date.getTime() + hours * 3_600_000);
const earlier = (at: Date, now: Date) => new Date(Math.min(at.getTime(), now.getTime() - 3 * 3_600_000));

/** Whether the demo firm exists, so start-up knows to print its sign-ins. */
export async function hasDemoData(db: DbExecutor): Promise<boolean> {
  return (await firmOfUsername(db, demoLogins[0].username)) !== undefined;
}
