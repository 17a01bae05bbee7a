import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { userActivityQuerySchema, userActivitySchema } from "../../../shared/reports";
import { createUserSchema, updateUserSchema, userSummarySchema } from "../../../shared/users";
import { idParams, type ZodTypeProvider } from "../../platform/http";
import { ifMatchHeaders, ifMatchOf, withEtag } from "../../platform/preconditions";
import { requireActor } from "../../tenancy/actor";
import { idempotencyKeyHeaders } from "../../tenancy/idempotency";
import { getUserActivity } from "./user-activity.service";
import { createUser, getUser, listUsers, updateUser } from "./users.service";

export function usersRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/users",
    {
      config: { access: "users.read" },
      schema: { summary: "The firm's users, by name", response: { 200: z.array(userSummarySchema) } },
    },
    async (request) => listUsers({ db: request.db, actor: requireActor(request) }),
  );

  api.get(
    "/api/users/:id",
    {
      config: { access: "users.read" },
      schema: { summary: "One of the firm's users", params: idParams("User"), response: { 200: userSummarySchema } },
    },
    async (request, reply) =>
      withEtag(reply, await getUser({ db: request.db, actor: requireActor(request), userId: request.params.id })),
  );

  api.get(
    "/api/users/:id/activity",
    {
      // The user audit's rule (S-ROLE-16): a `user` sees only their own (docs/design/people-screens.md).
      config: { access: "reports.userAudit" },
      schema: {
        summary:
          "A user's profile over the last `days` days of the firm's time zone (7, 30, 90 or 365; default 30): the " +
          "user audit's count of their work (completed: what they signed off in the range; pending and overdue: the " +
          "open tasks of their assigned clients now), the newest 200 of those tasks, their assigned clients",
        params: idParams("User"),
        querystring: userActivityQuerySchema,
        response: { 200: userActivitySchema },
      },
    },
    async (request) =>
      getUserActivity({
        db: request.db,
        actor: requireActor(request),
        userId: request.params.id,
        days: request.query.days,
      }),
  );

  api.post(
    "/api/users",
    {
      config: { access: "users.create" },
      schema: {
        summary: "Add a user to the firm",
        headers: idempotencyKeyHeaders,
        body: createUserSchema,
        response: { 201: userSummarySchema },
      },
    },
    async (request, reply) => {
      const user = await createUser({
        db: request.db,
        actor: requireActor(request),
        input: request.body,
        verifiedAt: request.verifiedAt,
      });
      return reply.status(201).send(withEtag(reply, user));
    },
  );

  api.patch(
    "/api/users/:id",
    {
      config: { access: "users.update" },
      schema: {
        summary:
          "Change a user's name or role, or disable them (which ends their sessions); with If-Match, only if no one has changed them since",
        params: idParams("User"),
        headers: ifMatchHeaders,
        body: updateUserSchema,
        response: { 200: userSummarySchema },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await updateUser({
          db: request.db,
          actor: requireActor(request),
          userId: request.params.id,
          input: request.body,
          ifMatch: ifMatchOf(request),
          verifiedAt: request.verifiedAt,
        }),
      ),
  );
}
