import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { ETAG_HEADER, etagOf, IF_MATCH_HEADER } from "../../shared/versions";
import { AppError } from "./errors";

/*
 * Conditional changes (RFC 9110 If-Match) against the version the database keeps on each editable
 * row (docs/decisions/0030). A change without If-Match still goes through, for API clients written
 * before versions existed; the app itself always sends it.
 */

/** What an If-Match header asks for: any current version ("*"), or one of these strong tags. */
export type IfMatch = { any: true } | { any: false; tags: readonly string[] };

// RFC 9110 §8.8.3: entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE, etagc = %x21 / %x23-7E / obs-text.
const entityTag = /^\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(?:,|$)/;

/** The If-Match header's value, or undefined when it is absent; null when it is not valid syntax. */
export function parseIfMatch(header: string | undefined): IfMatch | undefined | null {
  if (header === undefined) return undefined;
  if (header.trim() === "*") return { any: true };
  const tags: string[] = [];
  let rest = header;
  while (rest.trim() !== "") {
    const match = entityTag.exec(rest);
    if (!match) return null;
    // Only a strong tag can match: If-Match compares strongly, so a weak one never does.
    if (match[1] === undefined) tags.push(`"${match[2]}"`);
    rest = rest.slice(match[0].length);
  }
  return tags.length === 0 && !header.includes('"') ? null : { any: false, tags };
}

export const ifMatchMessage = 'If-Match must be * or entity tags as the ETag header gives them, such as "3"';

/** The optional If-Match header of a change route, declared so /api/docs lists it. */
export const ifMatchHeader = {
  [IF_MATCH_HEADER]: z
    .string()
    .refine((value) => parseIfMatch(value) !== null, ifMatchMessage)
    .optional()
    .describe(
      "The resource's ETag as last read. When someone has changed it since, the change is refused with 412 " +
        "and nothing is written. Without it the change applies to whatever is current.",
    ),
};

/** A route's headers schema with If-Match; other headers pass through untouched. */
export const ifMatchHeaders = z.looseObject(ifMatchHeader);

/** The request's If-Match (validated by ifMatchHeaders), for a service to check under its lock. */
export function ifMatchOf(request: FastifyRequest): IfMatch | undefined {
  const parsed = parseIfMatch(request.headers[IF_MATCH_HEADER] as string | undefined);
  if (parsed === null) throw new AppError("BAD_REQUEST", ifMatchMessage);
  return parsed;
}

/**
 * Refuses a change whose If-Match names a version other than `current`, the version the service
 * read with the row locked, so no other change can slip in between the check and the write.
 */
export function assertVersion(current: number, ifMatch: IfMatch | undefined, entity: string): void {
  if (ifMatch === undefined || ifMatch.any) return;
  if (!ifMatch.tags.includes(etagOf(current))) {
    throw new AppError(
      "PRECONDITION_FAILED",
      `This ${entity} was changed by someone else after you loaded it. Load it again to see their changes, then make yours.`,
    );
  }
}

/** Says a resource's version in the answer's ETag, and passes the resource on. */
export function withEtag<Resource extends { version: number }>(reply: FastifyReply, resource: Resource): Resource {
  void reply.header(ETAG_HEADER, etagOf(resource.version));
  return resource;
}

/**
 * Whether an If-None-Match header names `etag` (RFC 9110 §13.1.2: "*", or one of its tags by weak
 * comparison), so a cached copy is still good and the answer is 304. A header that is not valid
 * syntax matches nothing: the full answer is never wrong.
 */
export function matchesEtag(header: string | string[] | undefined, etag: string): boolean {
  if (typeof header !== "string") return false;
  if (header.trim() === "*") return true;
  let rest = header;
  while (rest.trim() !== "") {
    const match = entityTag.exec(rest);
    if (!match) return false;
    if (`"${match[2]}"` === etag) return true;
    rest = rest.slice(match[0].length);
  }
  return false;
}
