import type { Database, QueryClient } from "./database";

/*
 * The hot reads (the session lookup every signed-in request makes, and the queries behind the
 * screens' reads) are named prepared statements: drizzle builds their SQL once per database
 * handle instead of on every request, and PostgreSQL parses each once per connection and then
 * reuses its plan. See docs/decisions/0008-the-fast-path-for-reads.md.
 */

type Preparable<Statement> = { prepare: (name: string) => Statement };

/** Every statement name in use: PostgreSQL refuses two texts under one name on a connection. */
const names = new Set<string>();

/**
 * Declares a named prepared statement, at module level: `build` writes the query (with
 * `sql.placeholder(...)` for its inputs) and runs once per database handle, on first use.
 *
 *   const usersOfFirm = preparedStatement("users_of_firm", (db) =>
 *     db.select(...).from(users).where(eq(users.firmId, sql.placeholder("firmId"))));
 *   const rows = await usersOfFirm(db).execute({ firmId });
 */
export function preparedStatement<Statement>(
  name: string,
  build: (db: Database) => Preparable<Statement>,
): (db: Database) => Statement {
  if (names.has(name)) throw new Error(`Two prepared statements are named ${name}`);
  names.add(name);
  return builtOncePerDatabase(name, build);
}

function builtOncePerDatabase<Statement>(
  name: string,
  build: (db: Database) => Preparable<Statement>,
): (db: Database) => Statement {
  const byDatabase = new WeakMap<Database, Statement>();
  return (db) => {
    let statement = byDatabase.get(db);
    if (statement === undefined) {
      statement = build(db).prepare(name);
      byDatabase.set(db, statement);
    }
    return statement;
  };
}

/** The names of the statements declared so far (for the test that they stay prepared). */
export const preparedStatementNames = (): ReadonlySet<string> => names;

/**
 * A named prepared statement written in SQL, for reads drizzle's builder cannot express well
 * (several aggregates over common table expressions). `$1`, `$2`… are bound from `values`.
 */
export function preparedSql<Row>(
  name: string,
  text: string,
): (db: { $client: QueryClient }, values: unknown[]) => Promise<Row[]> {
  if (names.has(name)) throw new Error(`Two prepared statements are named ${name}`);
  names.add(name);
  return async (db, values) => (await db.$client.query({ name, text, values })).rows as Row[];
}

/**
 * A statement drizzle builds once per database handle but PostgreSQL plans on every execution,
 * for the values it runs with (an unnamed statement): for searches, whose best plan depends on
 * how many rows the words match, from a few found through a trigram index to most of the firm,
 * read in the list's order (decision 0040). A named statement would settle on one generic plan.
 */
export function plannedPerExecution<Statement>(
  build: (db: Database) => Preparable<Statement>,
): (db: Database) => Statement {
  // node-postgres parses a statement without a name anew each time.
  return builtOncePerDatabase("", build);
}
