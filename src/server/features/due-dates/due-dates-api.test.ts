import { beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../../../../tests/api-client";
import { seedFirm, signIn } from "../../../../tests/fixtures";
import { type TestApp, useTestApp } from "../../../../tests/test-app";
import type { DueDateRuleSummary, HolidayAnswer, HolidayCalendarSummary } from "../../../shared/due-dates";

/*
 * Statutory due dates through the API (decision 0053): the rules and holiday calendars Tendwell
 * ships, a rule's dates for one period with the reasons, and a calendar's days in a year, read by a
 * signed-in user against a real PostgreSQL. Who may call them, and that every firm gets the same
 * answer, is tests/access-matrix.test.ts's; random bad input is tests/bad-input.test.ts's.
 */

let ctx: TestApp;
/** A signed-in user of the weakest role: the routes are for anyone signed in. */
let user: ApiClient;

const shippedRules = [
  "us-1040",
  "us-1040-es-q1",
  "us-1040-es-q2",
  "us-1040-es-q3",
  "us-1040-es-q4",
  "us-1065",
  "us-1120s",
  "us-1120",
  "us-1041",
  "us-990",
  "us-941",
  "us-940",
  "us-w2",
  "us-1099-nec",
  "uk-ch-accounts",
  "uk-ct-payment",
  "uk-ct600",
  "uk-vat-quarter",
  "uk-sa-online",
  "uk-sa-paper",
  "uk-paye-monthly",
];

describe("statutory due dates through the API", () => {
  ctx = useTestApp();
  beforeAll(async () => {
    const firm = await seedFirm(ctx.database.db, "Due Dates Firm");
    user = await signIn(ctx.app, firm.users.user);
  });

  it("S-DUE-10 GET /api/due-date-rules lists every shipped rule with its jurisdiction, citation and frequency", async () => {
    const response = await user.get("/api/due-date-rules");
    expect(response.status).toBe(200);
    const rules = response.body as DueDateRuleSummary[];
    expect(rules.map((rule) => rule.id).sort()).toEqual([...shippedRules].sort());
    for (const rule of rules) {
      expect(Object.keys(rule).sort(), rule.id).toEqual(["citation", "frequency", "id", "jurisdiction", "name"]);
      expect(rule.name.trim(), rule.id).not.toBe("");
      expect(rule.citation.trim(), rule.id).not.toBe("");
      expect(rule.jurisdiction, rule.id).toBe(rule.id.startsWith("us-") ? "US" : "UK");
      expect(rule.id, rule.id).toMatch(/^(us|uk)-/);
      // The template frequency the rule's periods need: quarters, months, else years.
      const frequency = ["us-941", "uk-vat-quarter"].includes(rule.id)
        ? "quarterly"
        : rule.id === "uk-paye-monthly"
          ? "monthly"
          : "annually";
      expect(rule.frequency, rule.id).toBe(frequency);
    }
  });

  it("S-DUE-11 a rule's dates for a period, with the explanation", async () => {
    // A US return: 15 April 2028 is a Saturday, and DC Emancipation Day is observed on Monday 17 April.
    const individual = await user.get("/api/due-date-rules/us-1040/dates?periodEnd=2027-12-31");
    expect(individual.status, individual.text).toBe(200);
    expect(individual.body).toMatchObject({
      statutoryDate: "2028-04-15",
      dueDate: "2028-04-18",
      extendedDueDate: "2028-10-16",
      clearByDate: null,
    });
    expect(individual.body.explanation).toEqual(
      expect.arrayContaining([
        "15 Apr 2028 is a Saturday",
        "17 Apr 2028 is DC Emancipation Day (observed)",
        "due Tue 18 Apr 2028",
      ]),
    );
    for (const step of individual.body.explanation) expect(typeof step).toBe("string");

    // A UK payment: the date does not move, but the money must clear by the working day before.
    const selfAssessment = await user.get("/api/due-date-rules/uk-sa-online/dates?periodEnd=2025-04-05");
    expect(selfAssessment.status, selfAssessment.text).toBe(200);
    expect(selfAssessment.body).toMatchObject({
      statutoryDate: "2026-01-31",
      dueDate: "2026-01-31",
      extendedDueDate: null,
      clearByDate: "2026-01-30",
    });

    // A statewide holiday moves a filing: Patriots' Day (Monday 18 April 2011) in Massachusetts.
    const inState = await user.get("/api/due-date-rules/us-1040/dates?periodEnd=2010-12-31&state=MA");
    expect(inState.status, inState.text).toBe(200);
    expect(inState.body.dueDate).toBe("2011-04-19");
    const anywhere = await user.get("/api/due-date-rules/us-1040/dates?periodEnd=2010-12-31");
    expect(anywhere.status, anywhere.text).toBe(200);
    expect(anywhere.body.dueDate).toBe("2011-04-18");
    const lowerCase = await user.get("/api/due-date-rules/us-1040/dates?periodEnd=2010-12-31&state=ma");
    expect(lowerCase.status, lowerCase.text).toBe(200);
    expect(lowerCase.body).toEqual(inState.body);
  });

  it("S-DUE-12 a calendar's holidays in a year", async () => {
    const calendars = await user.get("/api/holiday-calendars");
    expect(calendars.status).toBe(200);
    const listed = calendars.body as HolidayCalendarSummary[];
    expect(listed.map((calendar) => calendar.id).sort()).toEqual(["uk-eaw", "uk-ni", "uk-sco", "us-irs"]);
    for (const calendar of listed) {
      expect(calendar.version.trim(), calendar.id).not.toBe("");
      expect(calendar.source.trim(), calendar.id).not.toBe("");
      expect(calendar.firstYear, calendar.id).toBeLessThanOrEqual(calendar.lastYear);
    }

    const us = await user.get("/api/holiday-calendars/us-irs/days?year=2028");
    expect(us.status, us.text).toBe(200);
    expect(us.body).toContainEqual({ date: "2028-04-17", name: "DC Emancipation Day (observed)" });
    const dates = (us.body as HolidayAnswer[]).map((holiday) => holiday.date);
    expect(dates).toEqual([...dates].sort());
    expect(dates.every((date) => date.startsWith("2028-"))).toBe(true);

    const england = await user.get("/api/holiday-calendars/uk-eaw/days?year=2027");
    expect(england.status, england.text).toBe(200);
    expect(england.body).toContainEqual({ date: "2027-12-27", name: "Christmas Day (substitute day)" });
    expect(england.body).toContainEqual({ date: "2027-12-28", name: "Boxing Day (substitute day)" });
  });

  it("S-DUE-13 bad rule ids, calendars, dates and years get a clear 400 or 404 and the API's error shape", async () => {
    const notFound = (message: string) => ({ status: 404, body: { code: "NOT_FOUND", message } });
    const validationFailed = (path: string[], message: string) => ({
      status: 400,
      body: { code: "VALIDATION_FAILED", message, issues: [{ path, message }] },
    });
    const dateMessage = "periodEnd must be a date written YYYY-MM-DD";
    const stateMessage = "state must be a US state's two-letter code, such as MA";
    const startMessage = "periodStart must fall within the 12 months that end on periodEnd (1 Jan 2027 to 31 Dec 2027)";
    const cases: [string, { status: number; body: unknown }][] = [
      ["/api/due-date-rules/us-9999/dates?periodEnd=2027-12-31", notFound("Due date rule not found")],
      ["/api/due-date-rules/US-1040/dates?periodEnd=2027-12-31", notFound("Due date rule not found")],
      ["/api/holiday-calendars/us-ny/days?year=2027", notFound("Holiday calendar not found")],
      [
        "/api/due-date-rules/us-1040/dates",
        validationFailed(["periodEnd"], "periodEnd is required: a date written YYYY-MM-DD"),
      ],
      ["/api/due-date-rules/us-1040/dates?periodEnd=2027-02-30", validationFailed(["periodEnd"], dateMessage)],
      ["/api/due-date-rules/us-1040/dates?periodEnd=2027-13-01", validationFailed(["periodEnd"], dateMessage)],
      ["/api/due-date-rules/us-1040/dates?periodEnd=20271231", validationFailed(["periodEnd"], dateMessage)],
      [
        "/api/due-date-rules/us-1040/dates?periodEnd=2027-12-30",
        validationFailed(["periodEnd"], "periodEnd must be the last day of a month"),
      ],
      [
        "/api/due-date-rules/uk-sa-online/dates?periodEnd=2025-04-06",
        validationFailed(["periodEnd"], "periodEnd must be 5 April, the end of a UK tax year"),
      ],
      [
        "/api/due-date-rules/us-1040/dates?periodEnd=1999-12-31",
        validationFailed(["periodEnd"], "periodEnd must be in the years 2000 to 2097"),
      ],
      [
        "/api/due-date-rules/us-1040/dates?periodEnd=2027-12-31&periodStart=2028-01-01",
        validationFailed(["periodStart"], startMessage),
      ],
      [
        "/api/due-date-rules/us-1040/dates?periodEnd=2027-12-31&periodStart=2026-12-31",
        validationFailed(["periodStart"], startMessage),
      ],
      ["/api/due-date-rules/us-1040/dates?periodEnd=2027-12-31&state=ZZ", validationFailed(["state"], stateMessage)],
      ["/api/due-date-rules/us-1040/dates?periodEnd=2027-12-31&state=M1", validationFailed(["state"], stateMessage)],
      [
        "/api/due-date-rules/uk-sa-online/dates?periodEnd=2025-04-05&state=MA",
        validationFailed(["state"], "state applies to US rules only; uk-sa-online is a UK rule"),
      ],
      [
        "/api/due-date-rules/us-1040/dates?periodEnd=2027-12-31&firmId=1",
        validationFailed([], 'Unrecognized key: "firmId"'),
      ],
      ["/api/holiday-calendars/us-irs/days", validationFailed(["year"], "year is required, such as 2027")],
      ["/api/holiday-calendars/us-irs/days?year=27", validationFailed(["year"], "year must be a year such as 2027")],
      ["/api/holiday-calendars/us-irs/days?year=1999", validationFailed(["year"], "year must be from 2000 to 2099")],
      ["/api/holiday-calendars/us-irs/days?year=2100", validationFailed(["year"], "year must be from 2000 to 2099")],
      ["/api/holiday-calendars/uk-eaw/days?year=2027&x=1", validationFailed([], 'Unrecognized key: "x"')],
    ];
    for (const [url, expected] of cases) {
      const response = await user.get(url);
      expect(response.status, `${url}: ${response.text}`).toBe(expected.status);
      expect(String(response.headers["content-type"]), url).toMatch(/^application\/json/);
      expect(response.body, url).toEqual(expected.body);
    }
  });
});
