import { z } from "zod";
import { apiErrorBodySchema } from "../../../shared/api-error";
import { brand } from "../../../shared/brand";
import { policies } from "../../../shared/permissions";
import { roles } from "../../../shared/roles";
import { pngAnswer } from "../../platform/http";
import type { ApiRoute, RouteAccess } from "../auth/access-control";
import { SESSION_COOKIE } from "../auth/sessions";

type JsonSchema = Record<string, unknown>;

/**
 * The OpenAPI 3.1 description of every /api route, built from what the routes declare: their
 * zod schemas (body, path, answers), their summary and their access rule. Nothing is written
 * twice, so the description cannot drift from what the server does.
 */
export function buildOpenApiDocument(routes: ApiRoute[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.url.replace(/:(\w+)/g, "{$1}");
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: `${brand.name} API`,
      version,
      description:
        "The JSON API behind the Tendwell web app. Sign in with POST /api/auth/login; the session " +
        "travels in a cookie. Every write must be JSON and come from the app's own origin. " +
        "Every refusal is JSON { message, code, issues? } with a 4xx status.",
      contact: { email: brand.supportEmail },
    },
    paths,
    components: {
      securitySchemes: { session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE } },
      schemas: { ApiError: jsonSchema(apiErrorBodySchema, "output") },
    },
  };
}

function operation({ method, url, access, schema = {} }: ApiRoute) {
  const params = schema.params instanceof z.ZodObject ? schema.params : undefined;
  const query = schema.querystring instanceof z.ZodObject ? schema.querystring : undefined;
  const headers = schema.headers instanceof z.ZodObject ? schema.headers : undefined;
  const body = schema.body instanceof z.ZodType ? schema.body : undefined;
  const answers = (schema.response ?? {}) as Record<string, z.ZodType>;
  return {
    operationId: operationId(method, url),
    tags: [url.split("/")[2]],
    ...(schema.summary ? { summary: schema.summary } : {}),
    description: whoMayCall(access),
    security: access === "public" ? [] : [{ session: [] }],
    ...(params || query || headers
      ? {
          parameters: [
            ...Object.entries(params?.shape ?? {}).map(([name, value]) => ({
              name,
              in: "path",
              required: true,
              schema: jsonSchema(value as z.ZodType, "input"),
            })),
            ...Object.entries(query?.shape ?? {}).map(([name, value]) => ({
              name,
              in: "query",
              required: !(value as z.ZodType).safeParse(undefined).success,
              schema: jsonSchema(value as z.ZodType, "input"),
            })),
            ...Object.entries(headers?.shape ?? {}).map(([name, value]) => ({
              name,
              in: "header",
              required: false,
              ...((value as z.ZodType).description ? { description: (value as z.ZodType).description } : {}),
              schema: { type: "string" },
            })),
          ],
        }
      : {}),
    ...(body
      ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(body, "input") } } } }
      : {}),
    responses: {
      ...Object.fromEntries(
        Object.entries(answers).map(([status, answer]) => [
          status,
          answer instanceof z.ZodVoid ? { description: "Done; no content" } : describeAnswer(answer),
        ]),
      ),
      "4XX": {
        description: "Refused: the message says why, the code is stable",
        content: { "application/json": { schema: { $ref: "#/components/schemas/ApiError" } } },
      },
    },
  };
}

/**
 * An answer's description: JSON from its schema, or, for an answer sent as the bytes it is, its
 * media type: pngAnswer's image, or what the schema's metadata names (a calendar feed's text).
 */
function describeAnswer(answer: z.ZodType) {
  const meta = answer === pngAnswer ? { contentMediaType: "image/png", description: "The image" } : answer.meta();
  const mediaType = meta?.contentMediaType;
  if (typeof mediaType !== "string") {
    return { description: "Done", content: { "application/json": { schema: jsonSchema(answer, "output") } } };
  }
  return {
    description: typeof meta?.description === "string" ? meta.description : "Done",
    content: { [mediaType]: { schema: { type: "string", contentMediaType: mediaType } } },
  };
}

/** `GET /api/users/:id` → `getUsersById`; a parameter's suffix is left out (`:token.ics` → `ByToken`). */
function operationId(method: string, url: string): string {
  const words = url
    .split("/")
    .slice(2)
    .flatMap((segment) =>
      segment.startsWith(":") ? ["by", segment.slice(1).replace(/\W.*$/, "")] : segment.split("-"),
    );
  return method.toLowerCase() + words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("");
}

function whoMayCall(access: RouteAccess): string {
  if (access === "public") return "Anyone, signed in or not.";
  if (access === "signedIn") return "Any signed-in user.";
  if (access === "pendingSignIn") return "A sign-in waiting for its second step (POST /api/auth/login answered 202).";
  const allowed = roles.filter((role) => policies[access].scope[role] !== "none");
  const scopes = allowed.map((role) => {
    const scope = policies[access].scope[role];
    return scope === "all" ? role : `${role} (${scope === "assigned" ? "assigned clients only" : "themselves only"})`;
  });
  return `Roles allowed to ${policies[access].description}: ${scopes.join(", ")}. Others get 403.`;
}

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io });
  return rest;
}
