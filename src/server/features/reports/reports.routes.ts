import type { FastifyInstance } from "fastify";
import { isoDateIn } from "../../../shared/dates";
import { dueDateFieldLabels, dueDateReasonLabels } from "../../../shared/due-dates";
import {
  clientReportSchema,
  type ReportDueDateChange,
  type ReportRange,
  reportQuerySchema,
  userReportClientsListed,
  userReportSchema,
} from "../../../shared/reports";
import { csvDate, fileSlug, sendCsv, sendCsvStream, toCsv, wantsCsv } from "../../platform/csv/csv";
import { idParams, type ZodTypeProvider } from "../../platform/http";
import { requireActor } from "../../tenancy/actor";
import { getClientReport } from "./client-report.service";
import { getUserReport, userCompletions } from "./user-report.service";

/** A line of a task's due-date log: "Due date: 2027-04-15 → 2027-07-15 (disaster relief: Hurricane Helene)". */
function describeDueDateChange(change: ReportDueDateChange): string {
  const reason = `${dueDateReasonLabels[change.reason]}${change.note ? `: ${change.note}` : ""}`;
  return `${dueDateFieldLabels[change.field]}: ${change.from ?? "—"} → ${change.to ?? "—"} (${reason})`;
}

/** `client-report-Harbor-Builders-30d-2026-11-23.csv`: the date is the range's last local day. */
export function reportFilename(kind: "client" | "user", name: string, range: ReportRange): string {
  return `${kind}-report-${fileSlug(name)}-${range.days}d-${isoDateIn(range.timeZone, range.to)}.csv`;
}

const csvNote = " With format=csv (or Accept: text/csv and no format), a CSV download instead of JSON";

export function reportsRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/reports/clients/:id",
    {
      config: { access: "reports.clientAudit" },
      schema: {
        summary:
          "A client's audit over the last `days` days of the firm's time zone (7, 30, 90 or 365; default 30): totals, " +
          "rates, the task history and a series for a chart (a user: assigned clients only, others are 404)." +
          `${csvNote}: one row per task of the history`,
        params: idParams("Client"),
        querystring: reportQuerySchema,
        response: { 200: clientReportSchema },
      },
    },
    async (request, reply) => {
      const { days, format } = request.query;
      const report = await getClientReport({
        db: request.db,
        actor: requireActor(request),
        clientId: request.params.id,
        days,
      });
      if (!wantsCsv(request, format)) return report;
      const date = csvDate(report.range.timeZone);
      const csv = toCsv(
        [
          "Task",
          "Status",
          "Priority",
          "Due date",
          "Created",
          "Completed",
          "Completed at (UTC)",
          "Printed name",
          "Signed by",
          "Due date changes",
        ],
        report.history.map((task) => [
          task.name,
          task.status,
          task.priority,
          date(task.dueDate),
          date(task.createdAt),
          date(task.completedAt),
          task.completedAt,
          task.printedName,
          task.completedBy?.fullName,
          task.dueDateChanges.map(describeDueDateChange).join("; "),
        ]),
      );
      return sendCsv(reply, reportFilename("client", report.client.name, report.range), csv);
    },
  );

  api.get(
    "/api/reports/users/:id",
    {
      config: { access: "reports.userAudit" },
      schema: {
        summary:
          "A user's audit over the tasks they completed in the last `days` days of the firm's time zone (7, 30, 90 " +
          `or 365; default 30): rates, breakdowns by priority and by the ${userReportClientsListed} clients with the most completions (of ` +
          "`clientsServed`), the 10 most recent completions and a series " +
          "(a user: only themselves, others are 403; another firm's user is 404)." +
          `${csvNote}: one row per completion of the range`,
        params: idParams("User"),
        querystring: reportQuerySchema,
        response: { 200: userReportSchema },
      },
    },
    async (request, reply) => {
      const { days, format } = request.query;
      const actor = requireActor(request);
      if (!wantsCsv(request, format)) return getUserReport({ db: request.db, actor, userId: request.params.id, days });
      const { user, range, rows } = await userCompletions({ db: request.db, actor, userId: request.params.id, days });
      const date = csvDate(range.timeZone);
      async function* cells() {
        for await (const row of rows) {
          yield [
            row.name,
            row.client.name,
            row.priority,
            date(row.dueDate),
            date(row.createdAt),
            date(row.completedAt),
            row.completedAt,
            row.onTime === null ? "" : row.onTime ? "yes" : "no",
          ];
        }
      }
      return sendCsvStream(
        reply,
        reportFilename("user", user.username, range),
        ["Task", "Client", "Priority", "Due date", "Created", "Completed", "Completed at (UTC)", "On time"],
        cells(),
      );
    },
  );
}
