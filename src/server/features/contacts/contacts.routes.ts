import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { contactSchema, createContactSchema, updateContactSchema } from "../../../shared/clients";
import type { Database } from "../../platform/db/database";
import { idParams, type ZodTypeProvider } from "../../platform/http";
import { requireActor } from "../../tenancy/actor";
import { createContact, deleteContact, updateContact } from "./contacts.service";

export function contactsRoutes(app: FastifyInstance, { db }: { db: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    "/api/contacts",
    {
      config: { access: "clients.write" },
      schema: {
        summary: "Add a contact to a client; a new primary contact replaces the old one",
        body: createContactSchema,
        response: { 201: contactSchema },
      },
    },
    async (request, reply) => {
      const contact = await createContact({
        db,
        actor: requireActor(request),
        input: request.body,
      });
      return reply.status(201).send(contact);
    },
  );

  api.patch(
    "/api/contacts/:id",
    {
      config: { access: "clients.write" },
      schema: {
        summary: "Change a contact; making it primary clears the client's other primary contact",
        params: idParams("Contact"),
        body: updateContactSchema,
        response: { 200: contactSchema },
      },
    },
    async (request) =>
      updateContact({
        db,
        actor: requireActor(request),
        contactId: request.params.id,
        input: request.body,
      }),
  );

  api.delete(
    "/api/contacts/:id",
    {
      config: { access: "clients.write" },
      schema: { summary: "Remove a contact", params: idParams("Contact"), response: { 204: z.void() } },
    },
    async (request, reply) => {
      await deleteContact({
        db,
        actor: requireActor(request),
        contactId: request.params.id,
      });
      return reply.status(204).send();
    },
  );
}
