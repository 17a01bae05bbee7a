import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  createTemplateSchema,
  libraryTemplateSchema,
  templateSchema,
  updateTemplateSchema,
} from "../../../shared/templates";
import { idParams, type ZodTypeProvider } from "../../platform/http";
import { ifMatchHeaders, ifMatchOf, withEtag } from "../../platform/preconditions";
import { requireActor } from "../../tenancy/actor";
import { idempotencyKeyHeaders } from "../../tenancy/idempotency";
import {
  addFromLibrary,
  createTemplate,
  deleteTemplate,
  getTemplate,
  listLibrary,
  listTemplates,
  updateTemplate,
} from "./templates.service";

/** A library key in a path: anything else cannot name a library template. */
const libraryKeyParams = z.object({
  key: z
    .string()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "Library template not found")
    .max(60, "Library template not found"),
});

export function templatesRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/task-templates",
    {
      config: { access: "templates.read" },
      schema: { summary: "The firm's task templates", response: { 200: z.array(templateSchema) } },
    },
    async (request) => listTemplates({ db: request.db, actor: requireActor(request) }),
  );

  api.get(
    "/api/task-templates/:id",
    {
      config: { access: "templates.read" },
      schema: { summary: "One task template", params: idParams("Task template"), response: { 200: templateSchema } },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await getTemplate({ db: request.db, actor: requireActor(request), templateId: request.params.id }),
      ),
  );

  api.post(
    "/api/task-templates",
    {
      config: { access: "templates.create" },
      schema: {
        summary: "Create a task template (createdBy is the signed-in user; a createdBy in the body is ignored)",
        headers: idempotencyKeyHeaders,
        body: createTemplateSchema,
        response: { 201: templateSchema },
      },
    },
    async (request, reply) => {
      const template = await createTemplate({
        db: request.db,
        actor: requireActor(request),
        input: request.body,
      });
      return reply.status(201).send(withEtag(reply, template));
    },
  );

  api.put(
    "/api/task-templates/:id",
    {
      config: { access: "templates.manage" },
      schema: {
        summary:
          "Replace a task template's fields; isRecurring false makes it one-time. With If-Match, only if no one has changed it since",
        params: idParams("Task template"),
        headers: ifMatchHeaders,
        body: updateTemplateSchema,
        response: { 200: templateSchema },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await updateTemplate({
          db: request.db,
          actor: requireActor(request),
          templateId: request.params.id,
          input: request.body,
          ifMatch: ifMatchOf(request),
        }),
      ),
  );

  api.delete(
    "/api/task-templates/:id",
    {
      config: { access: "templates.manage" },
      schema: {
        summary: "Delete a task template: its schedules end; the tasks made from it stay",
        params: idParams("Task template"),
        response: { 204: z.void() },
      },
    },
    async (request, reply) => {
      await deleteTemplate({
        db: request.db,
        actor: requireActor(request),
        templateId: request.params.id,
      });
      return reply.status(204).send();
    },
  );

  api.get(
    "/api/template-library",
    {
      config: { access: "templates.read" },
      schema: {
        summary: "The curated template library, by industry, each saying whether the firm has added it",
        response: { 200: z.array(libraryTemplateSchema) },
      },
    },
    async (request) => listLibrary({ db: request.db, actor: requireActor(request) }),
  );

  api.post(
    "/api/template-library/:key/add",
    {
      config: { access: "templates.create" },
      schema: {
        summary: "Add a library template to the firm's templates",
        params: libraryKeyParams,
        headers: idempotencyKeyHeaders,
        response: { 201: templateSchema },
      },
    },
    async (request, reply) => {
      const template = await addFromLibrary({
        db: request.db,
        actor: requireActor(request),
        key: request.params.key,
      });
      return reply.status(201).send(withEtag(reply, template));
    },
  );
}
