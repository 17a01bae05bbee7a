import { Column, DrizzleQueryError, fillPlaceholders, getTableName, is, noopDecoder, SQL, Subquery } from "drizzle-orm";
import type pg from "pg";
import type { Database, QueryClient } from "./database";
import { NamedStatement, runStatement } from "./named-statement";

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
      runDirectly(statement);
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
  const statement = new NamedStatement(name, text, "object");
  return async (db, values) => (await runStatement(db.$client, statement, values)).rows as Row[];
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

/** What drizzle's node-postgres prepared query holds of a select, and how it runs. */
type PreparedSelect = {
  fields?: { path: string[]; field: unknown }[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown[];
  client: QueryClient;
  params: unknown[];
  queryConfig: { name?: string; text: string; types: pg.CustomTypesConfig };
  execute: (placeholderValues?: Record<string, unknown>) => Promise<unknown[]>;
};

type Decode = (value: unknown) => unknown;
/** One column of a row: where it goes in the mapped row's object and how its value is decoded. */
type ColumnPlan = { index: number; key: string; decode: Decode | undefined };
/** A key of the mapped row: a column's value, or an object of columns (`task: taskColumns`). */
type KeyPlan = { key: string; column: ColumnPlan } | { key: string; columns: ColumnPlan[] };

/**
 * Runs a prepared select the shortest way drizzle's own `execute` would: the same SQL, values
 * and type parsers handed straight to the connection, and the rows mapped by a mapper worked out
 * once from the select's fields. drizzle's `execute` wraps each run in tracing spans and a cache
 * lookup, three async layers that cost some 5 µs a statement; and its row mapper asks every field
 * of every row what kind of field it is, walking its class chain, and reduces into each row: at a
 * page of 50 clients it was the largest part of what the app's process spent over the floor's
 * (decision 0008). This reads drizzle's prepared query as it is (`fields`, `joinsNotNullableMap`,
 * `client`, `params`, `queryConfig`); tests/prepared-statements.test.ts compares the rows with
 * drizzle's own. A failure is drizzle's `DrizzleQueryError`, as before. A select drizzle maps
 * otherwise keeps drizzle's `execute`: deeper nesting, or a nested object of a left-joined table,
 * which drizzle makes null when all its columns are.
 */
function runDirectly(statement: unknown): void {
  const select = statement as PreparedSelect;
  const mapRows = rowMapper(select);
  if (mapRows === undefined) return;
  const { client, params, queryConfig } = select;
  const { name, text, types } = queryConfig;
  const named = new NamedStatement(name ?? "", text, "array", types);
  select.execute = async (placeholderValues = {}) => {
    const values = fillPlaceholders(params, placeholderValues);
    let result: { rows: unknown[] };
    try {
      result = await runStatement(client, named, values);
    } catch (error) {
      throw new DrizzleQueryError(text, values, error as Error);
    }
    return mapRows(result.rows as unknown[][]);
  };
}

/**
 * The select's rows as drizzle maps them, from a plan worked out once: each column's key (at the
 * top of the row, or in a nested object such as `{ task: taskColumns }`) and its decoder, or none
 * where the value is kept as it comes (text, numbers, uuids). The same keys in the same order,
 * null as null, each value through the same decoder. Undefined where drizzle maps otherwise.
 */
function rowMapper(select: PreparedSelect): ((rows: unknown[][]) => Record<string, unknown>[]) | undefined {
  const { fields, joinsNotNullableMap } = select;
  if (!fields || select.customResultMapper || fields.some(({ path }) => path.length > 2)) return undefined;
  const nested = fields.filter(({ path }) => path.length === 2);
  if (
    joinsNotNullableMap &&
    nested.some(({ field }) => is(field, Column) && !joinsNotNullableMap[getTableName(field.table)])
  )
    return undefined;
  const plan: KeyPlan[] = [];
  fields.forEach(({ path, field }, index) => {
    const [key, nestedKey] = path as [string, string?];
    const column = { index, key: nestedKey ?? key, decode: decoderOf(field) };
    if (nestedKey === undefined) {
      plan.push({ key, column });
      return;
    }
    const group = plan.find((entry) => entry.key === key);
    if (group && "columns" in group) group.columns.push(column);
    else plan.push({ key, columns: [column] });
  });
  const columnValue = (row: unknown[], { index, decode }: ColumnPlan) => {
    const value = row[index];
    return value === null || decode === undefined ? value : decode(value);
  };
  return (rows) => {
    const mapped = new Array<Record<string, unknown>>(rows.length);
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index] as unknown[];
      const result: Record<string, unknown> = {};
      for (const entry of plan) {
        if ("column" in entry) {
          result[entry.key] = columnValue(row, entry.column);
          continue;
        }
        const object: Record<string, unknown> = {};
        for (const column of entry.columns) object[column.key] = columnValue(row, column);
        result[entry.key] = object;
      }
      mapped[index] = result;
    }
    return mapped;
  };
}

/** The field's decoder as drizzle would apply it, or undefined where it returns its input. */
function decoderOf(field: unknown): Decode | undefined {
  if (is(field, Column)) {
    return field.mapFromDriverValue === Column.prototype.mapFromDriverValue
      ? undefined
      : (value) => field.mapFromDriverValue(value);
  }
  // An expression's decoder (mapWith) is drizzle's internal: on the SQL, a subquery's, or an alias's.
  type WithDecoder = { decoder: { mapFromDriverValue: Decode } };
  const decoder = is(field, SQL)
    ? (field as unknown as WithDecoder).decoder
    : is(field, Subquery)
      ? (field as unknown as { _: { sql: WithDecoder } })._.sql.decoder
      : (field as { sql: WithDecoder }).sql.decoder;
  return decoder === noopDecoder ? undefined : (value) => decoder.mapFromDriverValue(value);
}
