import { AsyncLocalStorage } from "node:async_hooks";

/*
 * Row-level security's half in the app (decision 0033). Every tenant table has a policy that
 * shows a connection only the rows of the firm named by its `tendwell.firm_id` setting, or every
 * firm's when `tendwell.all_firms` is on; with neither set it shows none. The services already
 * filter every query by firm; this is the second wall, for a query that forgets to.
 *
 * Which firm a query acts for travels with the code that runs it (AsyncLocalStorage), so the
 * services keep taking one database handle: a signed-in request's handler runs in its actor's firm
 * (features/auth/access-control.ts), the few things that must reach across firms (finding who
 * signs in, the background jobs) say so with `acrossFirms`, and anything else runs in no firm at
 * all and sees no tenant row.
 */

export type FirmScope =
  | { kind: "firm"; firmId: string }
  | { kind: "all-firms" }
  | { kind: "no-firm" }
  /** For statements that read no tenant table (or only through a function that decides itself). */
  | { kind: "any" };

/**
 * What travels with the running code: its firm scope, and the statement each transaction it opens
 * runs last before it commits, if any (markingEachCommit). One AsyncLocalStorage holds both: on
 * Node 20 each one in use adds work to every promise the process makes.
 */
type Context = { scope: FirmScope; beforeCommit?: CommitMark };
/** A statement added to the end of a transaction; `tx` is the transaction (platform/db/database.ts). */
export type CommitMark = (tx: never) => Promise<unknown>;

const storage = new AsyncLocalStorage<Context>();
const noFirm: FirmScope = { kind: "no-firm" };

/** The scope the code running now acts in; outside any, no firm. */
export const currentScope = (): FirmScope => storage.getStore()?.scope ?? noFirm;

/** The mark the running code's transactions end with, if any. */
export const currentCommitMark = (): CommitMark | undefined => storage.getStore()?.beforeCommit;

const inScope = (scope: FirmScope): Context => ({ scope, beforeCommit: storage.getStore()?.beforeCommit });

/*
 * Each runs `work` in a scope and awaits it there: a query builder runs its query only when
 * awaited, so `withFirm(id, () => db.select()…)` must await inside the scope, not after it.
 */

/** Runs `work` acting for one firm: its queries see that firm's rows only. */
export const withFirm = <T>(firmId: string, work: () => T | PromiseLike<T>): Promise<T> =>
  storage.run(inScope({ kind: "firm", firmId }), async () => await work());

/** Calls `next` acting for one firm: for a hook that hands the rest of a request over to it. */
export const continueInFirm = (firmId: string, next: () => void): void =>
  storage.run(inScope({ kind: "firm", firmId }), next);

/** Runs `work` across every firm: for the few reads and jobs that must, each named where it is used. */
export const acrossFirms = <T>(work: () => T | PromiseLike<T>): Promise<T> =>
  storage.run(inScope({ kind: "all-firms" }), async () => await work());

/** Runs `work` on whatever scope a pooled connection has: for statements that read no tenant row. */
export const inAnyScope = <T>(work: () => T | PromiseLike<T>): Promise<T> =>
  storage.run(inScope({ kind: "any" }), async () => await work());

/**
 * Runs `work` (in the current scope) so that every transaction it opens on the database, not the
 * savepoints nested in one, runs `mark` as its last statement before it commits: a write that must
 * be atomic with whatever the work commits, without the services knowing of it. An Idempotency-Key
 * records this way that its create happened (tenancy/idempotency.ts).
 */
export const markingEachCommit = <T>(mark: CommitMark, work: () => T): T =>
  storage.run({ scope: currentScope(), beforeCommit: mark }, work);

/** The settings a connection needs for `scope`, as the values of tendwell.firm_id and tendwell.all_firms. */
export function scopeSettings(scope: Exclude<FirmScope, { kind: "any" }>): [firmId: string, allFirms: string] {
  if (scope.kind === "firm") return [scope.firmId, "off"];
  if (scope.kind === "all-firms") return ["", "on"];
  return ["", "off"];
}
