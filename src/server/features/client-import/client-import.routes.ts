import type { FastifyError, FastifyInstance } from "fastify";
import { z } from "zod";
import {
  clientImportPreviewSchema,
  clientImportSchema,
  commitImportSchema,
  createImportQuerySchema,
  type FileEncoding,
  importRowSchema,
  importRowsQuerySchema,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  updateImportMappingSchema,
} from "../../../shared/client-import";
import { NEXT_CURSOR_HEADER } from "../../../shared/paging";
import { AppError } from "../../platform/errors";
import { idParams, type ZodTypeProvider } from "../../platform/http";
import type { JobQueue } from "../../platform/jobs/job-queue";
import { sendNextCursor } from "../../platform/keyset";
import { requireActor } from "../../tenancy/actor";
import { idempotencyKeyHeaders } from "../../tenancy/idempotency";
import { getImport, listImportRows, listImports } from "./client-import.service";
import { commitImport, undoImport } from "./client-import-commit.service";
import { createImport, setImportMapping } from "./client-import-upload.service";
import { decodeCsvBytes } from "./csv-decode";

/** An app built without the job queue (some tests) refuses a commit once it is otherwise good, writing nothing. */
const noQueue: Pick<JobQueue, "sendWithin"> = {
  sendWithin: async () => {
    throw new AppError("SERVICE_UNAVAILABLE", "Imports cannot run on this server now (it has no job queue).");
  },
};

const megabytes = MAX_IMPORT_BYTES / (1024 * 1024);
const sendFileMessage = `Send the CSV file itself as the request body, with Content-Type: text/csv (at most ${megabytes} MB)`;

/*
 * Client import (decision 0051), for those who may create clients. The upload takes the file's
 * own bytes (text/csv), in a scope of its own with its own size limit; the rest is JSON.
 * Committing needs the job queue: without one (an app built without it) a commit is refused.
 */
export async function clientImportRoutes(app: FastifyInstance, { jobs }: { jobs: JobQueue | undefined }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      "text/csv",
      { parseAs: "buffer", bodyLimit: MAX_IMPORT_BYTES },
      (_request, body, done) => {
        try {
          done(null, decodeCsvBytes(body as Buffer));
        } catch (error) {
          done(error as Error);
        }
      },
    );
    // Fastify's own refusals of the body, said about the file.
    scope.setErrorHandler((error: FastifyError) => {
      if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
        throw new AppError(
          "PAYLOAD_TOO_LARGE",
          `This file is larger than ${megabytes} MB. Split it into smaller files (at most ${MAX_IMPORT_ROWS.toLocaleString("en-US")} rows each) and import each.`,
        );
      }
      if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE")
        throw new AppError("UNSUPPORTED_MEDIA_TYPE", sendFileMessage);
      throw error;
    });
    scope.withTypeProvider<ZodTypeProvider>().post(
      "/api/client-imports",
      {
        config: { access: "clients.write" },
        schema: {
          summary:
            `Start a client import: the CSV file as the body (Content-Type: text/csv, at most ${megabytes} MB and ` +
            `${MAX_IMPORT_ROWS.toLocaleString("en-US")} rows; UTF-8 with or without BOM, or Windows-1252; comma, semicolon or tab). ` +
            "Answers the import (its headers, the mapping remembered for such headers or guessed from them, counts) and the first page of rows with their errors and matches",
          querystring: createImportQuerySchema,
          headers: idempotencyKeyHeaders,
          response: { 201: clientImportPreviewSchema },
        },
      },
      async (request, reply) => {
        const file = request.body as { text: string; encoding: FileEncoding } | undefined;
        if (file === undefined || typeof file.text !== "string") throw new AppError("BAD_REQUEST", sendFileMessage);
        const preview = await createImport({
          db: request.db,
          actor: requireActor(request),
          fileName: request.query.fileName,
          file,
        });
        return reply.status(201).send(preview);
      },
    );
  });

  api.get(
    "/api/client-imports",
    {
      config: { access: "clients.write" },
      schema: {
        summary: "The firm's 20 latest client imports, newest first",
        response: { 200: z.array(clientImportSchema) },
      },
    },
    async (request) => listImports({ db: request.db, actor: requireActor(request) }),
  );

  api.get(
    "/api/client-imports/:id",
    {
      config: { access: "clients.write" },
      schema: {
        summary: "A client import: its status, the commit's progress (rows worked through) and its counts",
        params: idParams("Import"),
        response: { 200: clientImportSchema },
      },
    },
    async (request) => getImport({ db: request.db, actor: requireActor(request), importId: request.params.id }),
  );

  api.get(
    "/api/client-imports/:id/rows",
    {
      config: { access: "clients.write" },
      schema: {
        summary:
          "A page of an import's rows in file order (100 at a time), each with its errors, the client it matches and, once committed, what was done with it; " +
          `filter=errors or duplicates for those only; the next page's cursor comes in ${NEXT_CURSOR_HEADER}`,
        params: idParams("Import"),
        querystring: importRowsQuerySchema,
        response: { 200: z.array(importRowSchema) },
      },
    },
    async (request, reply) => {
      const page = await listImportRows({
        db: request.db,
        actor: requireActor(request),
        importId: request.params.id,
        query: request.query,
      });
      sendNextCursor(reply, page.nextCursor);
      return page.rows;
    },
  );

  api.put(
    "/api/client-imports/:id/mapping",
    {
      config: { access: "clients.write" },
      schema: {
        summary:
          "Map the file's columns (0-based) onto client and contact fields; every row is checked again, and the firm's next file with the same headers starts from this mapping",
        params: idParams("Import"),
        body: updateImportMappingSchema,
        response: { 200: clientImportPreviewSchema },
      },
    },
    async (request) =>
      setImportMapping({
        db: request.db,
        actor: requireActor(request),
        importId: request.params.id,
        input: request.body,
      }),
  );

  api.post(
    "/api/client-imports/:id/commit",
    {
      config: { access: "clients.write" },
      schema: {
        summary:
          "Import the rows in the background, with duplicates (rows matching a client by name or e-mail) skipped, updated or created anew. " +
          "Refused while any row has an error, or when the plan has no room for the new clients; poll the import for its progress",
        params: idParams("Import"),
        body: commitImportSchema,
        response: { 202: clientImportSchema },
      },
    },
    async (request, reply) => {
      const committed = await commitImport({
        db: request.db,
        actor: requireActor(request),
        jobs: jobs ?? noQueue,
        importId: request.params.id,
        input: request.body,
      });
      return reply.status(202).send(committed);
    },
  );

  api.post(
    "/api/client-imports/:id/undo",
    {
      config: { access: "clients.write" },
      schema: {
        summary:
          "Undo a finished import in the background: clients it created are removed (archived if they have since gained work or changes), " +
          "clients it updated get their earlier fields back; poll the import for the undo's progress and what it did",
        params: idParams("Import"),
        response: { 202: clientImportSchema },
      },
    },
    async (request, reply) => {
      const undoing = await undoImport({
        db: request.db,
        actor: requireActor(request),
        jobs: jobs ?? noQueue,
        importId: request.params.id,
      });
      return reply.status(202).send(undoing);
    },
  );
}
