import pg from "pg";
import pgUtils from "pg/lib/utils";

/*
 * A named prepared statement run the shortest way node-postgres allows: as a "submittable", the
 * interface pg keeps for query objects of one's own (pg-cursor and pg-query-stream are two).
 * pg's own Query, for every execution, copies its config through the properties' descriptors,
 * is an EventEmitter, and builds a Result that works out each column's parser anew and an empty
 * row object through a dictionary-mode copy: some 5 µs a statement on Node 20, measured in
 * profiles of GET /api/firm (decision 0008). Here a statement's fixed part (name, text, row
 * shape, parsers) is worked out once and shared by its executions; an execution holds only its
 * values and rows. It speaks the same extended protocol as pg's Query for a named statement:
 * Parse once per connection, then Bind, Describe, Execute and Sync, corked into one write.
 */

type TypeParsers = Pick<pg.CustomTypesConfig, "getTypeParser">;
type Parse = (text: string) => unknown;

/** What pg's connection offers a submittable (its own class is not in pg's public types). */
type Connection = {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  stream: { cork?: () => void; uncork?: () => void };
  parse: (query: { name: string; text: string }) => void;
  bind: (config: {
    portal: string;
    statement: string;
    values: unknown[];
    binary: boolean;
    valueMapper: (value: unknown) => unknown;
  }) => void;
  describe: (config: { type: "P"; name: string }) => void;
  execute: (config: { portal: string }) => void;
  sync: () => void;
};

type Callback = (error: Error | null, result?: { rows: unknown[] }) => void;

/** The columns of a statement's answer: their types (to tell a changed answer), names and parsers. */
type Columns = { fields: pg.FieldDef[]; parsers: Parse[] };

/**
 * A named statement's fixed part. `rowMode` "array" gives each row as its values in column order
 * (what drizzle maps from); "object" as an object keyed by column name. The name "" is
 * PostgreSQL's unnamed statement, parsed anew, and so planned for its values, on every run.
 */
export class NamedStatement {
  private columns: Columns | undefined;

  constructor(
    readonly name: string,
    readonly text: string,
    readonly rowMode: "array" | "object",
    private readonly types: TypeParsers = pg.types,
  ) {}

  /** One execution, to hand to a pg client's `query`. */
  run(values: unknown[]): NamedStatementRun {
    return new NamedStatementRun(this, values);
  }

  /** The parsers for an answer's columns: learnt from the first answer, kept while they match. */
  columnsOf(fields: pg.FieldDef[]): Columns {
    const known = this.columns;
    if (known !== undefined && sameColumns(known.fields, fields)) return known;
    const parsers = fields.map((field) => this.types.getTypeParser(field.dataTypeID, "text") as Parse);
    this.columns = { fields, parsers };
    return this.columns;
  }
}

const sameColumns = (known: pg.FieldDef[], fields: pg.FieldDef[]) =>
  known.length === fields.length &&
  known.every((field, index) => field.dataTypeID === fields[index]?.dataTypeID && field.name === fields[index]?.name);

/** What runs statements: a pool (pg's or a firm-scoped one), or one connection (a transaction's). */
type StatementClient = { query: (config: pg.QueryConfig) => Promise<unknown> } | pg.PoolClient;

/**
 * Runs `statement` with `values` on `client`: a pool takes a connection for the run and calls it
 * back itself; on a connection of one's own (a transaction's) the run's callback is ours to set.
 */
export function runStatement(
  client: StatementClient,
  statement: NamedStatement,
  values: unknown[],
): Promise<{ rows: unknown[] }> {
  const run = statement.run(values);
  if ("release" in client) {
    return new Promise((resolve, reject) => {
      run.callback = (error, result) => (error ? reject(error) : resolve(result as { rows: unknown[] }));
      client.query(run as unknown as pg.Submittable);
    });
  }
  return client.query(run as unknown as pg.QueryConfig) as Promise<{ rows: unknown[] }>;
}

/** One execution of a named statement: the handlers pg's client calls as the answer arrives. */
export class NamedStatementRun {
  /** Set by pg's client (or by whoever submits): called once, with the rows or the error. */
  callback: Callback | undefined = undefined;
  /** Read by pg's client to record the statement as parsed on the connection, or not. */
  readonly name: string;
  readonly text: string;
  private readonly rows: unknown[] = [];
  private columns: Columns | undefined = undefined;
  private failure: Error | undefined = undefined;

  constructor(
    private readonly statement: NamedStatement,
    private readonly values: unknown[],
  ) {
    this.name = statement.name;
    this.text = statement.text;
  }

  submit(connection: Connection): Error | null {
    const { name, text } = this;
    const previous =
      name === "" ? undefined : (connection.parsedStatements[name] ?? connection.submittedNamedStatements[name]);
    if (previous !== undefined && previous !== text) {
      return new Error(`Prepared statements must be unique - '${name}' was used for a different statement`);
    }
    connection.stream.cork?.();
    try {
      if (previous === undefined) {
        connection.parse({ name, text });
        if (name !== "") connection.submittedNamedStatements[name] = text;
      }
      try {
        connection.bind({
          portal: "",
          statement: name,
          values: this.values,
          binary: false,
          valueMapper: pgUtils.prepareValue,
        });
      } catch (error) {
        // A value pg cannot send fails the run; the statement stays parsed, as pg's client records
        // it on the ParseComplete still to come. (pg's Query closes it here, and its next run then
        // fails: "prepared statement does not exist".)
        connection.sync();
        this.handleError(error as Error);
        return null;
      }
      connection.describe({ type: "P", name: "" });
      connection.execute({ portal: "" });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: pg.FieldDef[] }): void {
    this.columns = this.statement.columnsOf(message.fields);
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    if (this.failure !== undefined || this.columns === undefined) return;
    const { fields, parsers } = this.columns;
    const raw = message.fields;
    try {
      if (this.statement.rowMode === "array") {
        const row = new Array<unknown>(raw.length);
        for (let index = 0; index < raw.length; index++) {
          const value = raw[index];
          row[index] = value === null || value === undefined ? null : (parsers[index] as Parse)(value);
        }
        this.rows.push(row);
      } else {
        const row: Record<string, unknown> = {};
        for (let index = 0; index < raw.length; index++) {
          const value = raw[index];
          row[(fields[index] as pg.FieldDef).name] =
            value === null || value === undefined ? null : (parsers[index] as Parse)(value);
        }
        this.rows.push(row);
      }
    } catch (error) {
      // Reported once the answer is over, so the connection is ready for the next statement.
      this.failure = error as Error;
    }
  }

  handleCommandComplete(): void {}

  handleError(error: Error): void {
    this.finish(this.failure ?? error);
  }

  handleReadyForQuery(): void {
    if (this.failure !== undefined) this.finish(this.failure);
    else this.finish(null, { rows: this.rows });
  }

  /** Calls back once: a value pg could not send fails the run, and the Sync after it still answers. */
  private finish(error: Error | null, result?: { rows: unknown[] }): void {
    const callback = this.callback;
    this.callback = undefined;
    callback?.(error, result);
  }
}
