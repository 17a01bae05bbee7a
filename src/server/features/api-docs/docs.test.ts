import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { apiClient } from "../../../../tests/api-client";
import { useTestApp } from "../../../../tests/test-app";

type Operation = {
  operationId: string;
  summary?: string;
  description: string;
  security: unknown[];
  parameters?: { name: string; in: string; schema: { format?: string } }[];
  requestBody?: { content: { "application/json": { schema: JsonSchema } } };
  responses: Record<string, { content?: { "application/json": { schema: JsonSchema } } }>;
};
type JsonSchema = { properties?: Record<string, unknown>; required?: string[]; additionalProperties?: boolean };
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

describe("GET /api/docs", () => {
  const ctx = useTestApp();
  const fetchDocument = async () => {
    const response = await apiClient(ctx.app).get("/api/docs");
    expect(response.status).toBe(200);
    return response.body as Document;
  };
  const operation = (document: Document, path: string, method: string) => {
    const found = document.paths[path]?.[method];
    if (!found) throw new Error(`no ${method} ${path} in the document`);
    return found;
  };

  it("is a valid OpenAPI 3.1 document", async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it("describes every /api route the app serves, each with a summary", async () => {
    const document = await fetchDocument();
    const described = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })),
    );
    const served = ctx.app.apiRoutes.map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, "{$1}")}`);
    expect(described.map(({ route }) => route).sort()).toEqual([...served].sort());
    const unsummarised = described.filter(({ op }) => !op.summary).map(({ route }) => route);
    expect(unsummarised).toEqual([]);
  });

  it("gives bodies, path ids and answers from the routes' own schemas", async () => {
    const document = await fetchDocument();
    const createUser = operation(document, "/api/users", "post");
    const body = createUser.requestBody?.content["application/json"].schema;
    expect(Object.keys(body?.properties ?? {}).sort()).toEqual(["fullName", "password", "role", "username"]);
    expect(body?.required?.sort()).toEqual(["fullName", "password", "username"]);
    expect(body?.additionalProperties).toBe(false);

    const getUser = operation(document, "/api/users/{id}", "get");
    expect(getUser.parameters).toEqual([expect.objectContaining({ name: "id", in: "path", required: true })]);
    expect(getUser.parameters?.[0]?.schema.format).toBe("uuid");
    const answer = getUser.responses["200"]?.content?.["application/json"].schema;
    expect(Object.keys(answer?.properties ?? {})).toContain("username");
    expect(Object.keys(answer?.properties ?? {})).not.toContain("passwordHash");
    expect(getUser.responses["4XX"]).toBeDefined();
    expect(getUser.operationId).toBe("getUsersById");
  });

  it("says who may call each route, from the role table", async () => {
    const document = await fetchDocument();
    const login = operation(document, "/api/auth/login", "post");
    expect(login.security).toEqual([]);
    expect(login.description).toBe("Anyone, signed in or not.");
    const assign = operation(document, "/api/user-clients/assign", "post");
    expect(assign.security).toEqual([{ session: [] }]);
    expect(assign.description).toBe("Roles allowed to assign clients to users: super_admin. Others get 403.");
    expect(operation(document, "/api/user-clients", "get").description).toBe(
      "Roles allowed to view client assignments: super_admin, admin, user (themselves only). Others get 403.",
    );
  });
});
