import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  disasterReliefCreatedSchema,
  disasterReliefInputSchema,
  disasterReliefSchema,
  dueDateQuerySchema,
  dueDateRuleSchema,
  dueDatesSchema,
  holidayCalendarSchema,
  holidaySchema,
  holidayYearQuerySchema,
  manualDueDateChangeSchema,
  taskDueDatesSchema,
} from "../../../shared/due-dates";
import { AppError, fieldError } from "../../platform/errors";
import { idParams as entityIdParams, type ZodTypeProvider } from "../../platform/http";
import { ifMatchHeader, ifMatchOf } from "../../platform/preconditions";
import { requireActor } from "../../tenancy/actor";
import { idempotencyKeyHeader } from "../../tenancy/idempotency";
import { listReliefs, recordRelief } from "./disaster-reliefs.service";
import { DueDateInputError, dueDatesFor } from "./due-date-engine";
import { dueDateRule, dueDateRules, templateFrequencyOf } from "./due-date-rules";
import { allHolidayCalendars, holidayCalendar, holidaysIn } from "./holiday-calendars";
import { changeDueDate, fileExtension, getTaskDueDates } from "./task-due-dates.service";

/*
 * The statutory due-date rules and holiday calendars (decision 0053), read-only and the same for
 * every firm: the screens use them, and a firm checks a rule's answer for a period here.
 */
const idParams = z.strictObject({ id: z.string().max(100) });

export function dueDatesRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/due-date-rules",
    {
      config: { access: "signedIn" },
      schema: {
        summary:
          "The statutory deadlines Tendwell knows, each with its jurisdiction, citation and the template frequency it needs",
        response: { 200: z.array(dueDateRuleSchema) },
      },
    },
    async () =>
      dueDateRules.map((rule) => ({
        id: rule.id,
        name: rule.name,
        jurisdiction: rule.jurisdiction,
        citation: rule.versions[0]?.citation ?? "",
        frequency: templateFrequencyOf(rule),
      })),
  );

  api.get(
    "/api/due-date-rules/:id/dates",
    {
      config: { access: "signedIn" },
      schema: {
        summary:
          "A rule's dates for one period: the statutory date, the due date (moved past weekends and holidays " +
          "where the rule moves), the extended due date, the date a payment must clear by, and why, step by step",
        params: idParams,
        querystring: dueDateQuerySchema,
        response: { 200: dueDatesSchema },
      },
    },
    async (request) => {
      const rule = dueDateRule(request.params.id);
      if (!rule) throw new AppError("NOT_FOUND", "Due date rule not found");
      try {
        const dates = dueDatesFor(rule, request.query);
        return {
          statutoryDate: dates.statutoryDate.toString(),
          dueDate: dates.dueDate.toString(),
          extendedDueDate: dates.extendedDueDate?.toString() ?? null,
          clearByDate: dates.clearByDate?.toString() ?? null,
          explanation: dates.explanation,
        };
      } catch (error) {
        if (error instanceof DueDateInputError) throw fieldError(error.field, error.message);
        throw error;
      }
    },
  );

  api.get(
    "/api/holiday-calendars",
    {
      config: { access: "signedIn" },
      schema: {
        summary: "The holiday calendars deadlines move on, with their versions and sources",
        response: { 200: z.array(holidayCalendarSchema) },
      },
    },
    async () =>
      allHolidayCalendars().map(({ id, name, version, source, firstYear, lastYear }) => ({
        id,
        name,
        version,
        source,
        firstYear,
        lastYear,
      })),
  );

  api.get(
    "/api/holiday-calendars/:id/days",
    {
      config: { access: "signedIn" },
      schema: {
        summary: "A calendar's holidays in one year, in date order, as held (observed and substitute days included)",
        params: idParams,
        querystring: holidayYearQuerySchema,
        response: { 200: z.array(holidaySchema) },
      },
    },
    async (request) => {
      const calendar = holidayCalendar(request.params.id);
      if (!calendar) throw new AppError("NOT_FOUND", "Holiday calendar not found");
      const { year } = request.query;
      if (year < calendar.firstYear || year > calendar.lastYear)
        throw fieldError("year", `year must be from ${calendar.firstYear} to ${calendar.lastYear}`);
      return holidaysIn(calendar, year).map(({ date, name }) => ({ date: date.toString(), name }));
    },
  );

  api.get(
    "/api/tasks/:id/due-dates",
    {
      config: { access: "clients.read" },
      schema: {
        summary:
          "A task's statutory dates: its rule and period, the statutory, due, clear-by and extended dates, " +
          "why they are what they are, and every change of them (the due-date log). A task that follows no rule " +
          "answers rule null",
        params: entityIdParams("Task"),
        response: { 200: taskDueDatesSchema },
      },
    },
    async (request) => getTaskDueDates({ db: request.db, actor: requireActor(request), taskId: request.params.id }),
  );

  api.post(
    "/api/tasks/:id/extension",
    {
      config: { access: "tasks.create" },
      schema: {
        summary:
          "Record that an extension of time was filed for a pending task that follows a rule with one: the " +
          "task then falls due on the extended date, counted from the unshifted statutory date; logged and audited",
        params: entityIdParams("Task"),
        headers: z.looseObject({ ...ifMatchHeader, ...idempotencyKeyHeader }),
        response: { 200: taskDueDatesSchema },
      },
    },
    async (request) =>
      fileExtension({
        db: request.db,
        actor: requireActor(request),
        taskId: request.params.id,
        ifMatch: ifMatchOf(request),
      }),
  );

  api.post(
    "/api/tasks/:id/due-date",
    {
      config: { access: "dueDates.override" },
      schema: {
        summary:
          "Move the day a pending task that follows a rule is due (its extended due day once an extension is " +
          "filed), saying why; the rule's dates stay shown, and a new calendar version leaves the day as set. " +
          "Logged (MANUAL) and audited",
        params: entityIdParams("Task"),
        headers: z.looseObject({ ...ifMatchHeader, ...idempotencyKeyHeader }),
        body: manualDueDateChangeSchema,
        response: { 200: taskDueDatesSchema },
      },
    },
    async (request) =>
      changeDueDate({
        db: request.db,
        actor: requireActor(request),
        taskId: request.params.id,
        change: request.body,
        ifMatch: ifMatchOf(request),
      }),
  );

  api.get(
    "/api/disaster-reliefs",
    {
      config: { access: "clients.read" },
      schema: {
        summary: "The disaster relief windows the firm recorded, newest first",
        response: { 200: z.array(disasterReliefSchema) },
      },
    },
    async (request) => listReliefs({ db: request.db, actor: requireActor(request) }),
  );

  api.post(
    "/api/disaster-reliefs",
    {
      config: { access: "dueDates.override" },
      schema: {
        summary:
          "Record a disaster relief (IRC 7508A): every open task of a client in a covered state whose due day " +
          "falls in the window moves to the relief's day at once, each logged; tasks made or extended later " +
          "follow it too. A relief stays as recorded",
        headers: z.looseObject({ ...idempotencyKeyHeader }),
        body: disasterReliefInputSchema,
        response: { 201: disasterReliefCreatedSchema },
      },
    },
    async (request, reply) => {
      const created = await recordRelief({ db: request.db, actor: requireActor(request), input: request.body });
      return reply.status(201).send(created);
    },
  );
}
