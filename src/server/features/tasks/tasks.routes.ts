import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { NEXT_CURSOR_HEADER, TOTAL_COUNT_HEADER } from "../../../shared/paging";
import {
  completeTaskSchema,
  createTaskSchema,
  type ListTasksQuery,
  listOverdueQuerySchema,
  listTasksQuerySchema,
  maxTasksPage,
  signatureQuerySchema,
  taskListItemSchema,
  taskSchema,
  updateTaskSchema,
} from "../../../shared/tasks";
import { sendPagedCsv, wantsCsv } from "../../platform/csv/csv";
import type { Database } from "../../platform/db/database";
import { idParams, pngAnswer, type ZodTypeProvider } from "../../platform/http";
import { sendNextCursor } from "../../platform/keyset";
import { ifMatchHeader, ifMatchHeaders, ifMatchOf, matchesEtag, withEtag } from "../../platform/preconditions";
import { type Actor, requestOrigin, requireActor } from "../../tenancy/actor";
import { idempotencyKeyHeader, idempotencyKeyHeaders } from "../../tenancy/idempotency";
import { getFirm } from "../firm/firm.service";
import { listOverdueTasks } from "./overdue-tasks.service";
import { listTasks } from "./task-list.service";
import { completeTask, getSignature } from "./task-sign-off.service";
import { createTask, deleteTask, getTask, updateTask } from "./tasks.service";

export function tasksRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/tasks",
    {
      config: { access: "clients.read" },
      schema: {
        summary:
          "Tasks across the clients the caller may see (a user: those assigned to them), completed first by newest " +
          "completion, then by due date descending, each with its client's name. Archived clients' tasks only with " +
          "their clientId. Optional status (pending, completed, overdue), search q over task name, description and " +
          `client name, clientId, and limit with cursor for pages (the next page's cursor comes in ${NEXT_CURSOR_HEADER}). ` +
          `Without limit, the largest page (${maxTasksPage}). With format=csv (or Accept: text/csv and no format), ` +
          "every matching task as a CSV download, without limit and cursor",
        querystring: listTasksQuerySchema,
        response: { 200: z.array(taskListItemSchema) },
      },
    },
    async (request, reply) => {
      if (wantsCsv(request, request.query.format)) {
        return sendTasksCsv(reply, { db: request.db, actor: requireActor(request), query: request.query });
      }
      const page = await listTasks({ db: request.db, actor: requireActor(request), query: request.query });
      sendNextCursor(reply, page.nextCursor);
      return page.tasks;
    },
  );

  api.get(
    "/api/tasks/overdue",
    {
      config: { access: "clients.read" },
      schema: {
        summary:
          "Tasks not completed whose due date has passed, oldest due first, each with its client's id and name " +
          "(a user: on the clients assigned to them). With limit, only the first ones, and how many there are " +
          `in ${TOTAL_COUNT_HEADER}`,
        querystring: listOverdueQuerySchema,
        response: { 200: z.array(taskListItemSchema) },
      },
    },
    async (request, reply) => {
      const overdue = await listOverdueTasks({ db: request.db, actor: requireActor(request), query: request.query });
      if (overdue.total !== undefined) reply.header(TOTAL_COUNT_HEADER, String(overdue.total));
      return overdue.tasks;
    },
  );

  api.get(
    "/api/tasks/:id",
    {
      config: { access: "clients.read" },
      schema: {
        summary: "One task, with who signed it off (a user: one of their assigned clients' tasks)",
        params: idParams("Task"),
        response: { 200: taskSchema },
      },
    },
    async (request, reply) =>
      withEtag(reply, await getTask({ db: request.db, actor: requireActor(request), taskId: request.params.id })),
  );

  api.get(
    "/api/tasks/:id/signature",
    {
      config: { access: "clients.read" },
      schema: {
        summary:
          "A signed-off task's drawn signature, as a PNG (the address each task's answer gives as signature). " +
          "With v (the image's SHA-256, as the task's signatureSha256), the image never changes and may be kept " +
          "for a year; without it, revalidate with If-None-Match (the ETag is the hash)",
        params: idParams("Task"),
        querystring: signatureQuerySchema,
        response: { 200: pngAnswer, 304: z.void() },
      },
    },
    async (request, reply) => {
      const { png, sha256 } = await getSignature({
        db: request.db,
        actor: requireActor(request),
        taskId: request.params.id,
        sha256: request.query.v,
      });
      const etag = `"${sha256}"`;
      // Private: the image is a firm's evidence, for this browser's cache only, never a shared one.
      reply
        .header("cache-control", request.query.v ? "private, max-age=31536000, immutable" : "private, no-cache")
        .header("etag", etag);
      if (matchesEtag(request.headers["if-none-match"], etag)) return reply.status(304).send();
      return reply.type("image/png").send(png);
    },
  );

  api.post(
    "/api/tasks",
    {
      config: { access: "tasks.create" },
      schema: {
        summary:
          "Create a pending task for a client (a user: one assigned to them); completing it is a separate, signed step",
        headers: idempotencyKeyHeaders,
        body: createTaskSchema,
        response: { 201: taskSchema },
      },
    },
    async (request, reply) => {
      const task = await createTask({
        db: request.db,
        actor: requireActor(request),
        input: request.body,
      });
      return reply.status(201).send(withEtag(reply, task));
    },
  );

  api.patch(
    "/api/tasks/:id",
    {
      config: { access: "tasks.create" },
      schema: {
        summary:
          "Change a pending task's name, description, priority or due date (only those sent; with If-Match, only if no one has changed it since); a signed-off task cannot change",
        params: idParams("Task"),
        headers: ifMatchHeaders,
        body: updateTaskSchema,
        response: { 200: taskSchema },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await updateTask({
          db: request.db,
          actor: requireActor(request),
          taskId: request.params.id,
          input: request.body,
          ifMatch: ifMatchOf(request),
        }),
      ),
  );

  api.delete(
    "/api/tasks/:id",
    {
      config: { access: "tasks.create" },
      schema: {
        summary: "Delete a pending task; signed-off tasks are kept as evidence",
        params: idParams("Task"),
        response: { 204: z.void() },
      },
    },
    async (request, reply) => {
      await deleteTask({ db: request.db, actor: requireActor(request), taskId: request.params.id });
      return reply.status(204).send();
    },
  );

  api.patch(
    "/api/tasks/:id/complete",
    {
      config: { access: "tasks.complete" },
      schema: {
        summary:
          "Sign a pending task off with a printed name and a drawn signature (a PNG data URL of at most 256 KB). " +
          "The signer is the signed-in user: a completedBy in the body is accepted and ignored",
        params: idParams("Task"),
        headers: z.looseObject({ ...ifMatchHeader, ...idempotencyKeyHeader }),
        body: completeTaskSchema,
        response: { 200: taskSchema },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await completeTask({
          db: request.db,
          actor: requireActor(request),
          taskId: request.params.id,
          input: request.body,
          origin: requestOrigin(request),
          ifMatch: ifMatchOf(request),
        }),
      ),
  );
}

/**
 * Every task the list's filters match (status, q, clientId), as a CSV download, read a page of
 * 500 (maxTasksPage) at a time through the list's own keyset cursor (sendPagedCsv). The
 * sign-off's instant has a column of its own.
 */
function sendTasksCsv(reply: FastifyReply, options: { db: Database; actor: Actor; query: ListTasksQuery }) {
  const { db, actor, query } = options;
  return sendPagedCsv(reply, {
    query,
    timeZone: async () => (await getFirm({ db, actor })).timeZone,
    filename: (day) => `tasks-${query.status ?? "all"}-${day}.csv`,
    page: async (cursor, now) => {
      const page = await listTasks({ db, actor, query: { ...query, limit: maxTasksPage, cursor }, now });
      return { items: page.tasks, nextCursor: page.nextCursor };
    },
    header: [
      "Task",
      "Client",
      "Status",
      "Priority",
      "Due date",
      "Created",
      "Completed",
      "Completed at (UTC)",
      "Printed name",
      "Signed by",
    ],
    row: (task, date) => [
      task.name,
      task.clientName,
      task.status,
      task.priority,
      date(task.dueDate),
      date(task.createdAt),
      date(task.completedAt),
      task.completedAt,
      task.printedName,
      task.completedByUser?.fullName,
    ],
  });
}
