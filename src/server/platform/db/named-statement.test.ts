import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../../../tests/test-database";
import { NamedStatement, runStatement } from "./named-statement";

/*
 * A statement run as pg's submittable must answer exactly as pg's own Query does, leave its
 * connection ready for the next statement whatever happens, and be parsed once per connection.
 */
describe("a named statement run as pg's submittable", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 1 });
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  const rowsOf = async (client: pg.Pool | pg.PoolClient, statement: NamedStatement, values: unknown[]) =>
    (await runStatement(client, statement, values)).rows;
  const executions = async (name: string) =>
    (
      await pool.query<{ executions: number }>(
        "select (generic_plans + custom_plans)::int as executions from pg_prepared_statements where name = $1",
        [name],
      )
    ).rows[0]?.executions;

  const text = `select $1::timestamptz as at, $2::uuid[] as ids, $3::jsonb as doc, $4::text as nothing,
    n, n::numeric / 4 as quarter, n % 2 = 0 as even from generate_series(1, $5::int) as n`;
  const values = [
    new Date("2026-11-27T10:00:00.123Z"),
    ["01a21f5e-0880-76ab-9a3b-f09280dadbd5", "01a21f5e-08b4-73cb-a324-9ff4231a49a0"],
    { a: 1, b: ["x", null] },
    null,
    3,
  ];

  it("answers the rows pg's own query does, as arrays or objects, parsed once per connection", async () => {
    const asObjects = new NamedStatement("test_shapes_objects", text, "object");
    const asArrays = new NamedStatement("test_shapes_arrays", text, "array");
    const pgObjects = (await pool.query({ text, values })).rows;
    const pgArrays = (await pool.query({ text, values, rowMode: "array" })).rows;
    expect(pgObjects).toHaveLength(3);
    expect(await rowsOf(pool, asObjects, values)).toEqual(pgObjects);
    expect(await rowsOf(pool, asObjects, values)).toEqual(pgObjects);
    expect(await rowsOf(pool, asArrays, values)).toEqual(pgArrays);
    const client = await pool.connect();
    try {
      expect(await rowsOf(client, asArrays, values)).toEqual(pgArrays);
    } finally {
      client.release();
    }
    expect(await executions("test_shapes_objects")).toBe(2);
    expect(await executions("test_shapes_arrays")).toBe(2);
  });

  it("the unnamed statement is parsed anew on each run and kept by no name", async () => {
    const unnamed = new NamedStatement("", "select $1::int * 2 as doubled", "object");
    expect(await rowsOf(pool, unnamed, [2])).toEqual([{ doubled: 4 }]);
    expect(await rowsOf(pool, unnamed, [5])).toEqual([{ doubled: 10 }]);
    const { rows } = await pool.query("select count(*)::int as kept from pg_prepared_statements where name = ''");
    expect(rows[0].kept).toBe(0);
  });

  it("PostgreSQL's error rejects the run, and the connection and the statement serve the next one", async () => {
    const dividing = new NamedStatement("test_dividing", "select 10 / $1::int as quotient", "object");
    await expect(rowsOf(pool, dividing, [0])).rejects.toMatchObject({ code: "22012" });
    expect(await rowsOf(pool, dividing, [5])).toEqual([{ quotient: 2 }]);
    const client = await pool.connect();
    try {
      await expect(rowsOf(client, dividing, [0])).rejects.toMatchObject({ code: "22012" });
      expect(await rowsOf(client, dividing, [2])).toEqual([{ quotient: 5 }]);
    } finally {
      client.release();
    }
  });

  it("a value pg cannot send, or a row its parser refuses, rejects once and leaves the connection ready", async () => {
    const echo = new NamedStatement("test_echo", "select $1::text as said", "object");
    const unsendable = {
      toPostgres: () => {
        throw new Error("cannot be sent");
      },
    };
    const client = await pool.connect();
    try {
      let callbacks = 0;
      const failing = echo.run([unsendable]);
      const failed = new Promise<unknown>((resolve) => {
        failing.callback = (error) => {
          callbacks += 1;
          resolve(error);
        };
      });
      client.query(failing as unknown as pg.Submittable);
      expect(await failed).toMatchObject({ message: "cannot be sent" });
      expect(await rowsOf(client, echo, ["after"])).toEqual([{ said: "after" }]);
      expect(callbacks).toBe(1);

      const refusing = new NamedStatement("test_refusing", "select 'x'::text as said", "object", {
        getTypeParser: () => () => {
          throw new Error("unreadable");
        },
      });
      await expect(rowsOf(client, refusing, [])).rejects.toThrow("unreadable");
      expect(await rowsOf(client, echo, ["still"])).toEqual([{ said: "still" }]);
    } finally {
      client.release();
    }
  });

  it("two texts under one name on a connection are refused, as pg refuses them", async () => {
    await rowsOf(pool, new NamedStatement("test_taken", "select 1 as one", "object"), []);
    await expect(rowsOf(pool, new NamedStatement("test_taken", "select 2 as two", "object"), [])).rejects.toThrow(
      /Prepared statements must be unique/,
    );
  });
});
