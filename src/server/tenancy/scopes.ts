import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { type Action, scopeOf } from "../../shared/permissions";
import type { Actor } from "./actor";

/*
 * The predicates every service shares, each written once. A few reads are hand-written SQL
 * (several aggregates over common table expressions), the rest are built with drizzle, so each
 * predicate is a list of SQL pieces and operands that renders either way: `…Text` with column
 * names and `$n` markers as strings, the other with drizzle columns and placeholders.
 */

type Piece<Operand> = string | { operand: Operand };
const operand = <Operand>(value: Operand): Piece<Operand> => ({ operand: value });
const asText = (pieces: Piece<string>[]) =>
  pieces.map((piece) => (typeof piece === "string" ? piece : piece.operand)).join("");
const asSql = (pieces: Piece<SQLWrapper>[]): SQL =>
  sql.join(pieces.map((piece) => (typeof piece === "string" ? sql.raw(piece) : piece.operand)));

/**
 * The user whose assigned clients limit what `actor` reaches with `action`, or null when the
 * actor's role reaches the whole firm (the role table in src/shared/permissions.ts).
 */
export function assignedUserOf(actor: Pick<Actor, "role" | "userId">, action: Action): string | null {
  return scopeOf(actor.role, action) === "assigned" ? actor.userId : null;
}

function visibleClientPieces<Operand>(firmId: Operand, clientId: Operand, assignedUser: Operand): Piece<Operand>[] {
  return [
    "(",
    operand(assignedUser),
    "::uuid is null or exists (select 1 from user_clients uc where uc.firm_id = ",
    operand(firmId),
    " and uc.client_id = ",
    operand(clientId),
    " and uc.user_id = ",
    operand(assignedUser),
    "::uuid))",
  ];
}

/**
 * "The client is visible": `assignedUser` is null (the actor sees the firm) or the client is
 * assigned to that user. Columns name the client (its firm and id, or a task's firm and client).
 */
export const visibleClient = (firmId: SQLWrapper, clientId: SQLWrapper, assignedUser: SQLWrapper) =>
  asSql(visibleClientPieces(firmId, clientId, assignedUser));
export const visibleClientText = (firmId: string, clientId: string, assignedUser: string) =>
  asText(visibleClientPieces(firmId, clientId, assignedUser));

function overduePieces<Operand>(status: Operand, dueDate: Operand, now: Operand): Piece<Operand>[] {
  return ["(", operand(status), " = 'pending' and ", operand(dueDate), " < ", operand(now), "::timestamptz)"];
}

/**
 * "The task is overdue": not completed and due before `now` (one instant per request, so every
 * figure of an answer agrees). A task due exactly now is not yet overdue.
 */
export const overdue = (status: SQLWrapper, dueDate: SQLWrapper, now: SQLWrapper) =>
  asSql(overduePieces(status, dueDate, now));
export const overdueText = (status: string, dueDate: string, now: string) =>
  asText(overduePieces(status, dueDate, now));

/** "The task is pending": not completed and not overdue (no due date, or due `now` or later). */
export const pending = (status: SQLWrapper, dueDate: SQLWrapper, now: SQLWrapper) =>
  asSql([
    "(",
    operand(status),
    " = 'pending' and (",
    operand(dueDate),
    " is null or ",
    operand(dueDate),
    " >= ",
    operand(now),
    "::timestamptz))",
  ]);

function auditKeyPieces<Operand>(time: Operand): Piece<Operand>[] {
  return ["(case when ", operand(time), " is null then '-infinity'::timestamptz else ", operand(time), " end)"];
}

/**
 * A timestamp as a key of the task audit order (decision 0011), "none" sorting as -infinity.
 * Written as CASE, as tasks_firm_id_audit_order_idx is: under row-level security a condition
 * is an index condition only if PostgreSQL knows it cannot leak, and coalesce is not among those
 * (decision 0039).
 */
export const auditKey = (time: SQLWrapper) => asSql(auditKeyPieces(time));
export const auditKeyText = (time: string) => asText(auditKeyPieces(time));
