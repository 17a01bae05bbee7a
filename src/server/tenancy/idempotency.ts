import { createHash } from "node:crypto";
import { and, eq, isNull, lt, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { ETAG_HEADER, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from "../../shared/versions";
import type { Database } from "../platform/db/database";
import { markingEachCommit } from "../platform/db/firm-scope";
import { idempotencyKeys } from "../platform/db/schema";
import { AppError } from "../platform/errors";
import { hooksOf } from "../platform/http";
import { requireActor } from "./actor";

/*
 * Idempotency-Key on the routes that create things (docs/decisions/0030), after the IETF HTTPAPI
 * draft "The Idempotency-Key HTTP Header Field": the first request with a key runs and its answer
 * is kept for 24 hours per firm; the same key with the same request is answered from the store and
 * creates nothing; the same key with another request is refused with 422; a repeat that arrives
 * while the first is still running gets 409 and Retry-After. Only successes are kept: a request
 * refused or failed before its write committed leaves the key free, so the caller can fix the
 * request and send it again.
 *
 * The create's own transaction marks the key as done (`committed_at`) as its last statement, so
 * the key and the create commit together. A process that dies after that commit and before the
 * answer is kept (milliseconds) leaves a key that is done but has no answer: a repeat of it creates
 * nothing: while the running lease lasts it is told to retry, as if the first were still running,
 * and after it that the answer was lost (409, IDEMPOTENCY_KEY_ANSWER_LOST). So is a repeat of a
 * request whose create committed and whose answer then failed. Only a key whose request committed
 * nothing is free again.
 *
 * A route opts in by declaring the header in its headers schema (`idempotencyKeyHeaders`, or
 * `idempotencyKeyHeader` with others).
 */

/** How long a key and its answer are kept. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A key whose request has run this long without an answer belongs to a process that died
 * mid-request: a repeat may take it over. Far longer than any create takes.
 */
const RUNNING_LEASE_MS = 60_000;

export const idempotencyKeyMessage =
  'Idempotency-Key must be 1 to 255 visible ASCII characters, quoted or not (e.g. "8e03978e-40d5-43e8-bc93-6894a57f9324")';

/** The key of a header value: an RFC 8941 string ("...") as the draft writes it, or the bare text. */
export function idempotencyKeyOf(header: string): string | null {
  const quoted = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/.exec(header);
  const key = quoted ? (quoted[1] ?? "").replace(/\\(["\\])/g, "$1") : header;
  return key.length >= 1 && key.length <= 255 && /^[\x20-\x7e]+$/.test(key) && key.trim() === key ? key : null;
}

export const idempotencyKeyHeader = {
  [IDEMPOTENCY_KEY_HEADER]: z
    .string()
    .refine((value) => idempotencyKeyOf(value) !== null, idempotencyKeyMessage)
    .optional()
    .describe(
      "A key unique to this create (a UUID, say). Sending the same request with the same key within 24 hours " +
        `answers the first answer again, with ${IDEMPOTENT_REPLAYED_HEADER}: true, and creates nothing; ` +
        "the same key with another request is refused with 422.",
    ),
};

/** A create route's headers schema: the optional Idempotency-Key; other headers pass through. */
export const idempotencyKeyHeaders = z.looseObject(idempotencyKeyHeader);

/** Whether a route's headers schema declares Idempotency-Key. */
const takesIdempotencyKey = (headers: unknown): boolean =>
  headers instanceof z.ZodObject && IDEMPOTENCY_KEY_HEADER in headers.shape;

declare module "fastify" {
  interface FastifyRequest {
    /** The key this request holds while it runs, set when it carries one on an idempotent route. */
    idempotencyKey?: { firmId: string; key: string };
  }
}

export function registerIdempotency(app: FastifyInstance) {
  const claim = async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (header === undefined) return;
    const key = typeof header === "string" ? idempotencyKeyOf(header) : null;
    if (key === null) throw new AppError("BAD_REQUEST", idempotencyKeyMessage);
    await claimOrReplay(request.db, request, reply, key);
    const held = request.idempotencyKey;
    if (held === undefined || reply.sent) return;
    // The handler's transactions mark the key done as they commit.
    request.db = markingEachCommit(request.db, (tx: Pick<Database, "update">) =>
      tx.update(idempotencyKeys).set({ committedAt: sql`now()` }).where(heldRow(held)),
    );
  };

  // The answer as serialized, before any compression (see the hook order below).
  const keep = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const held = request.idempotencyKey;
    if (held === undefined) return payload;
    request.idempotencyKey = undefined;
    const row = heldRow(held);
    if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === "string") {
      const etag = reply.getHeader(ETAG_HEADER);
      await request.db
        .update(idempotencyKeys)
        .set({
          responseStatus: reply.statusCode,
          responseBody: payload,
          responseEtag: typeof etag === "string" ? etag : null,
        })
        .where(row);
    } else {
      await request.db.delete(idempotencyKeys).where(and(row, isNull(idempotencyKeys.committedAt)));
    }
    return payload;
  };

  // Only the routes that declare the header pay for it: their own hooks, added as they register.
  // `keep` goes first among the route's onSend hooks, ahead of compression's, so it keeps the
  // serialized text rather than a compressed stream (a large answer, a signed task's, is compressed).
  app.addHook("onRoute", (route) => {
    if (!takesIdempotencyKey(route.schema?.headers)) return;
    route.preHandler = [...hooksOf(route.preHandler), claim];
    route.onSend = [keep, ...hooksOf(route.onSend)];
  });
}

const heldRow = (held: { firmId: string; key: string }) =>
  and(eq(idempotencyKeys.firmId, held.firmId), eq(idempotencyKeys.key, held.key));

/** What the key stands for: the route, its path, the user and the parsed body. */
function fingerprintOf(request: FastifyRequest, userId: string): string {
  const request_ = [request.method, request.routeOptions.url, request.params, userId, request.body ?? null];
  return createHash("sha256").update(JSON.stringify(request_)).digest("hex");
}

async function claimOrReplay(db: Database, request: FastifyRequest, reply: FastifyReply, key: string) {
  const actor = requireActor(request);
  const fingerprint = fingerprintOf(request, actor.userId);
  const row = heldRow({ firmId: actor.firmId, key });
  // A key past its 24 hours is forgotten, whether or not housekeeping has removed it yet.
  await db.delete(idempotencyKeys).where(and(row, lt(idempotencyKeys.createdAt, expiredBefore())));
  const [claimed] = await db
    .insert(idempotencyKeys)
    .values({ firmId: actor.firmId, key, fingerprint })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (claimed) {
    request.idempotencyKey = { firmId: actor.firmId, key };
    return;
  }
  const [kept] = await db.select().from(idempotencyKeys).where(row);
  if (!kept) {
    // Its holder failed and let it go between our insert and this read: the caller may simply retry.
    throw new AppError("IDEMPOTENCY_KEY_IN_USE", "A request with this Idempotency-Key has just ended; send it again", {
      retryAfterSeconds: 1,
    });
  }
  if (kept.fingerprint !== fingerprint) {
    throw new AppError(
      "IDEMPOTENCY_KEY_REUSED",
      "This Idempotency-Key was already used for a different request; use a new key for a new request",
    );
  }
  if (kept.responseStatus !== null && kept.responseBody !== null) {
    if (kept.responseEtag !== null) void reply.header(ETAG_HEADER, kept.responseEtag);
    return reply
      .status(kept.responseStatus)
      .header(IDEMPOTENT_REPLAYED_HEADER, "true")
      .type("application/json; charset=utf-8")
      .send(kept.responseBody);
  }
  // Done but unanswered: still answering, or its process died between the two (past the lease).
  if (kept.committedAt !== null && kept.startedAt.getTime() < Date.now() - RUNNING_LEASE_MS) {
    throw new AppError(
      "IDEMPOTENCY_KEY_ANSWER_LOST",
      "This request was already carried out, but its answer was lost; reload to see what it did",
    );
  }
  const [takenOver] = await db
    .update(idempotencyKeys)
    .set({ startedAt: sql`now()` })
    .where(
      and(
        row,
        isNull(idempotencyKeys.committedAt),
        lt(idempotencyKeys.startedAt, new Date(Date.now() - RUNNING_LEASE_MS)),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  if (takenOver) {
    request.idempotencyKey = { firmId: actor.firmId, key };
    return;
  }
  throw new AppError(
    "IDEMPOTENCY_KEY_IN_USE",
    "A request with this Idempotency-Key is still being processed; wait for its answer or retry shortly",
    { retryAfterSeconds: 1 },
  );
}

/** Keys created before this are past their 24 hours. */
export const expiredBefore = (now = new Date()) => new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS);
