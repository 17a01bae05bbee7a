import { z } from "zod";

/*
 * Optimistic concurrency and safe retries over plain HTTP (docs/decisions/0030). Every editable
 * resource (client, contact, task, template, user, firm) carries the version the database keeps for
 * it: its answers say it in the body's `version` and in the `ETag` header, and a change may send it
 * back in `If-Match`, which the server refuses with 412 when someone changed the resource since.
 * A create may carry an `Idempotency-Key`: the same key with the same request answers the first
 * answer again instead of creating twice.
 */

export const IF_MATCH_HEADER = "if-match";
export const ETAG_HEADER = "etag";
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
/** Set to "true" on an answer sent again for a repeated Idempotency-Key. */
export const IDEMPOTENT_REPLAYED_HEADER = "idempotent-replayed";

/** A resource's version as its answers carry it. */
export const versionSchema = z.number().int().positive();

/** The strong entity tag of `version`: what `ETag` answers and `If-Match` sends back. */
export const etagOf = (version: number): string => `"${version}"`;
