import { z } from "zod";

/** Writes one answer as JSON text. */
export type AnswerWriter = (data: unknown) => string;

type JsonSchema = { [keyword: string]: unknown };
type Projection = (value: unknown) => unknown;

/**
 * The function that writes answers of one zod schema (decisions 0043 and 0048): a projection
 * compiled from the schema's JSON Schema copies the listed fields only, checking each value's
 * type on the way, and `JSON.stringify` writes the copy. So nothing a row holds beyond its schema
 * can leave the server, a missing required field or a value of the wrong type throws, and the
 * text is written by V8's own serializer, which on Node 24 writes a page of 50 clients in about
 * two thirds of fast-json-stringify's time (its escaping runs in JavaScript and builds a rope that
 * Node flattens again to send it). Unlike a zod parse it checks no string formats or lengths.
 *
 * The listed fields go out required first, then the optional ones present, each group in the
 * schema's order. Schemas JSON Schema cannot say (a custom check such as `pngAnswer`, whose bytes
 * never pass through a writer) become "anything", written as they are.
 */
export function compileAnswerWriter(schema: z.ZodType): AnswerWriter {
  const jsonSchema = z.toJSONSchema(schema, { io: "input", target: "draft-7", unrepresentable: "any" });
  const project = new ProjectionCompiler().compile(jsonSchema as JsonSchema);
  return (data) => JSON.stringify(project(data));
}

/** Keywords that say nothing about which fields leave or of what JSON type they are. */
const NOT_WRITTEN = new Set([
  "$schema",
  "title",
  "description",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "propertyNames",
  "additionalProperties",
]);
const UNDERSTOOD = new Set([
  ...NOT_WRITTEN,
  "type",
  "properties",
  "required",
  "items",
  "const",
  "enum",
  "anyOf",
  "oneOf",
]);

const SCALAR_CHECKS: Record<string, (value: string) => string> = {
  string: (value) => `typeof ${value} === "string"`,
  number: (value) => `typeof ${value} === "number"`,
  integer: (value) => `Number.isInteger(${value})`,
  boolean: (value) => `typeof ${value} === "boolean"`,
  null: (value) => `${value} === null`,
};

/**
 * Turns a JSON Schema into a projection: one generated function per object, array or union,
 * each building its copy as an object literal (V8 gives every copy of a schema the same shape,
 * which is what makes `JSON.stringify` of it fast). The generated code only ever names fields and
 * values the schema holds, through `JSON.stringify`-quoted keys and tables passed in, never
 * anything an answer holds.
 */
class ProjectionCompiler {
  /** The generated functions, called by each other as `p[i]`. */
  private readonly projections: Projection[] = [];
  /** The allowed values of each `enum` and the listed fields of each open object, as `e[i]`. */
  private readonly enums: Set<unknown>[] = [];
  /** What each checked place is, for the error that names it, as `where[i]`. */
  private readonly places: string[] = [];

  compile(schema: JsonSchema): Projection {
    return this.projection(schema, "the answer");
  }

  /** A projection of a value of `schema` at `place` (a description for errors). */
  private projection(schema: JsonSchema, place: string): Projection {
    return this.generate(`return ${this.expression(schema, "v", place)};`);
  }

  private generate(body: string): Projection {
    const refuse = (where: number, value: unknown) => {
      throw new Error(`${this.places[where]} is ${kindOf(value)}, which its answer schema does not allow`);
    };
    const factory = new Function("p", "e", "refuse", `return function (v) { let t; ${body} };`);
    return factory(this.projections, this.enums, refuse) as Projection;
  }

  /** A JavaScript expression that projects `value` (an expression without side effects). */
  private expression(schema: JsonSchema, value: string, place: string, orNull = false): string {
    const unknownKeyword = Object.keys(schema).find((keyword) => !UNDERSTOOD.has(keyword));
    if (unknownKeyword) throw new Error(`Answers cannot be written from a schema with "${unknownKeyword}" (${place})`);
    const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    if (union) {
      const branch = nonNullBranch(union);
      return branch ? this.expression(branch, value, place, true) : this.unionExpression(union, value, place);
    }
    const types = typeList(schema);
    if (types.length === 0 && schema.const === undefined && schema.enum === undefined) {
      // "Anything": written as it is; only its presence is checked.
      return `(${value} === undefined ? refuse(${this.place(place)}, undefined) : ${value})`;
    }
    const nullable = orNull || types.includes("null");
    if (types.includes("object")) return this.call(this.objectProjection(schema, place), value, nullable);
    if (types.includes("array")) return this.call(this.arrayProjection(schema, place), value, nullable);
    const check = nullable ? `t === null || (${this.scalarCheck(schema, "t")})` : this.scalarCheck(schema, "t");
    return `(t = ${value}, ${check} ? t : refuse(${this.place(place)}, t))`;
  }

  /** A check that `value` is a scalar of `schema`: one of its types, its constant, one of its values. */
  private scalarCheck(schema: JsonSchema, value: string): string {
    const checks = [
      typeList(schema)
        .map((type) => SCALAR_CHECKS[type]?.(value) ?? "false")
        .join(" || ") || "true",
    ];
    if (schema.const !== undefined) checks.push(`${value} === ${JSON.stringify(schema.const)}`);
    if (Array.isArray(schema.enum)) checks.push(`e[${this.enums.push(new Set(schema.enum)) - 1}].has(${value})`);
    return checks.map((check) => `(${check})`).join(" && ");
  }

  private objectProjection(schema: JsonSchema, place: string): number {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const keys = Object.keys(properties);
    const check = `if (typeof v !== "object" || v === null || Array.isArray(v)) refuse(${this.place(place)}, v);`;
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const field = (key: string) => {
      const quoted = JSON.stringify(key);
      return { quoted, value: this.expression(properties[key] as JsonSchema, `v[${quoted}]`, `${place}'s "${key}"`) };
    };
    const listed = keys.filter((key) => required.has(key)).map(field);
    const optional = keys.filter((key) => !required.has(key)).map(field);
    const others = schema.additionalProperties === true ? {} : schema.additionalProperties;
    if (isSchema(others)) {
      // A record, or an object open to more fields than it lists: every key goes, each value
      // projected, into an object with no prototype, so that a key such as "__proto__" is a
      // field like any other.
      const each = this.expression(others, "v[key]", `${place}'s field`);
      const names = this.enums.push(new Set(keys)) - 1;
      return this.add(
        [
          check,
          "const o = Object.create(null);",
          ...listed.map(({ quoted, value }) => `o[${quoted}] = ${value};`),
          ...optional.map(({ quoted, value }) => `if (v[${quoted}] !== undefined) o[${quoted}] = ${value};`),
          `for (const key of Object.keys(v)) if (!e[${names}].has(key)) o[key] = ${each};`,
          "return o;",
        ].join(" "),
      );
    }
    return this.add(
      [
        check,
        `const o = { ${listed.map(({ quoted, value }) => `${quoted}: ${value}`).join(", ")} };`,
        ...optional.map(({ quoted, value }) => `if (v[${quoted}] !== undefined) o[${quoted}] = ${value};`),
        "return o;",
      ].join(" "),
    );
  }

  private arrayProjection(schema: JsonSchema, place: string): number {
    if (!isSchema(schema.items)) throw new Error(`Answers cannot be written from an array without items (${place})`);
    const item = this.expression(schema.items, "v[i]", `an item of ${place}`);
    return this.add(
      `if (!Array.isArray(v)) refuse(${this.place(place)}, v); ` +
        `const o = new Array(v.length); for (let i = 0; i < v.length; i++) o[i] = ${item}; return o;`,
    );
  }

  /**
   * A union: of scalars, one check of them all; otherwise the first branch that takes the value
   * (a discriminated union's branches differ in a constant, which each checks).
   */
  private unionExpression(branches: JsonSchema[], value: string, place: string): string {
    const isScalar = (branch: JsonSchema) =>
      !branch.anyOf && !branch.oneOf && typeList(branch).every((type) => type in SCALAR_CHECKS);
    if (branches.every(isScalar)) {
      const check = branches.map((branch) => `(${this.scalarCheck(branch, "t")})`).join(" || ");
      return `(t = ${value}, ${check} ? t : refuse(${this.place(place)}, t))`;
    }
    const projections = branches.map((branch) => this.projection(branch, place));
    const index = this.projections.push((candidate) => {
      for (const project of projections) {
        try {
          return project(candidate);
        } catch {
          // Not this branch; try the next.
        }
      }
      throw new Error(`${place} is ${kindOf(candidate)}, which no branch of its answer schema takes`);
    });
    return `p[${index - 1}](${value})`;
  }

  /** An expression calling projection `index` on `value`, passing null through when allowed. */
  private call(index: number, value: string, nullable: boolean): string {
    return nullable ? `(t = ${value}, t === null ? null : p[${index}](t))` : `p[${index}](${value})`;
  }

  private add(body: string): number {
    return this.projections.push(this.generate(body)) - 1;
  }

  private place(place: string): number {
    return this.places.push(place) - 1;
  }
}

/**
 * zod says "X or null" as `anyOf: [X, {type: "null"}]`: written as X that may be null, one check
 * rather than a union's try of each branch.
 */
function nonNullBranch(branches: JsonSchema[]): JsonSchema | undefined {
  if (branches.length !== 2) return undefined;
  const [branch, nullBranch] = branches as [JsonSchema, JsonSchema];
  const isNull = Object.keys(nullBranch).length === 1 && nullBranch.type === "null";
  return isNull ? branch : undefined;
}

/** The JSON types a schema names. */
function typeList(schema: JsonSchema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  return Array.isArray(schema.type) ? (schema.type as string[]) : [];
}

const isSchema = (value: unknown): value is JsonSchema =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const kindOf = (value: unknown): string =>
  value === undefined
    ? "missing"
    : value === null
      ? "null"
      : Array.isArray(value)
        ? "an array"
        : typeof value === "object"
          ? "an object"
          : `a ${typeof value}`;
