import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { contactSchema, createContactSchema, updateContactSchema } from "../../../shared/clients";
import { idParams, type ZodTypeProvider } from "../../platform/http";
import { ifMatchHeaders, ifMatchOf, withEtag } from "../../platform/preconditions";
import { requireActor } from "../../tenancy/actor";
import { idempotencyKeyHeaders } from "../../tenancy/idempotency";
import { createContact, deleteContact, getContact, updateContact } from "./contacts.service";

export function contactsRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    "/api/contacts",
    {
      config: { access: "clients.write" },
      schema: {
        summary: "Add a contact to a client; a new primary contact replaces the old one",
        headers: idempotencyKeyHeaders,
        body: createContactSchema,
        response: { 201: contactSchema },
      },
    },
    async (request, reply) => {
      const contact = await createContact({
        db: request.db,
        actor: requireActor(request),
        input: request.body,
      });
      return reply.status(201).send(withEtag(reply, contact));
    },
  );

  api.get(
    "/api/contacts/:id",
    {
      config: { access: "clients.read" },
      schema: {
        summary: "One contact (a user: of one of their assigned clients)",
        params: idParams("Contact"),
        response: { 200: contactSchema },
      },
    },
    async (request, reply) =>
      withEtag(reply, await getContact({ db: request.db, actor: requireActor(request), contactId: request.params.id })),
  );

  api.patch(
    "/api/contacts/:id",
    {
      config: { access: "clients.write" },
      schema: {
        summary:
          "Change a contact (only the fields sent; with If-Match, only if no one has changed it since); making it primary clears the client's other primary contact",
        params: idParams("Contact"),
        headers: ifMatchHeaders,
        body: updateContactSchema,
        response: { 200: contactSchema },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await updateContact({
          db: request.db,
          actor: requireActor(request),
          contactId: request.params.id,
          input: request.body,
          ifMatch: ifMatchOf(request),
        }),
      ),
  );

  api.delete(
    "/api/contacts/:id",
    {
      config: { access: "clients.write" },
      schema: { summary: "Remove a contact", params: idParams("Contact"), response: { 204: z.void() } },
    },
    async (request, reply) => {
      await deleteContact({
        db: request.db,
        actor: requireActor(request),
        contactId: request.params.id,
      });
      return reply.status(204).send();
    },
  );
}
