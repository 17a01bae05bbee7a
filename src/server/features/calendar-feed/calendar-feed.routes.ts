import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  calendarFeedSchema,
  calendarFeedTokenSchema,
  createCalendarFeedSchema,
  myCalendarFeedSchema,
  updateCalendarFeedSchema,
} from "../../../shared/calendar-feed";
import type { Config } from "../../platform/config";
import type { ZodTypeProvider } from "../../platform/http";
import { matchesEtag } from "../../platform/preconditions";
import type { SealingKey } from "../../platform/sealed-secrets";
import { requireActor } from "../../tenancy/actor";
import {
  calendarFeedText,
  createCalendarFeed,
  myCalendarFeed,
  replaceCalendarFeedAddress,
  revokeCalendarFeed,
  updateCalendarFeed,
} from "./calendar-feed.service";

/**
 * The feed's answer: an RFC 5545 calendar, sent as the bytes it is (never through a serializer);
 * /api/docs describes it as text/calendar.
 */
export const calendarAnswer = z
  .custom<Buffer>((value) => Buffer.isBuffer(value))
  .meta({ contentMediaType: "text/calendar", description: "The calendar (RFC 5545)" });

/**
 * How long the calendar app's own copy is good for before it asks again (with If-None-Match).
 * Modest: a change of private mode reaches a copy within five minutes. Private: the feed is one
 * user's, for no shared cache.
 */
const FEED_CACHE_CONTROL = "private, max-age=300";

/*
 * The calendar feed's routes (decision 0047): the signed-in user's own feed under
 * /api/account/calendar-feed, as their sign-in factors are under /api/account; and the feed itself,
 * public, for a calendar app holding its secret address. Making, replacing or turning off the
 * feed needs no step-up: the address reaches only what any session of the user reads already.
 */
export function calendarFeedRoutes(app: FastifyInstance, { config, key }: { config: Config; key: SealingKey }) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/account/calendar-feed",
    {
      config: { access: "signedIn" },
      schema: {
        summary: "The signed-in user's calendar feed (its address and private mode), or null when they have none",
        response: { 200: myCalendarFeedSchema },
      },
    },
    async (request) =>
      myCalendarFeed({ db: request.db, key, actor: requireActor(request), appOrigin: appOriginOf(request, config) }),
  );

  api.post(
    "/api/account/calendar-feed",
    {
      config: { access: "signedIn" },
      schema: {
        summary:
          "Turn on the signed-in user's calendar feed: a secret address serving the open tasks of their clients " +
          "as all-day events. One per user: with one already, 409",
        body: createCalendarFeedSchema,
        response: { 201: calendarFeedSchema },
      },
    },
    async (request, reply) => {
      const feed = await createCalendarFeed({
        db: request.db,
        key,
        actor: requireActor(request),
        appOrigin: appOriginOf(request, config),
        input: request.body,
      });
      return reply.status(201).send(feed);
    },
  );

  api.put(
    "/api/account/calendar-feed",
    {
      config: { access: "signedIn" },
      schema: {
        summary: "Hide client names in the signed-in user's calendar feed, or show them; the address stays",
        body: updateCalendarFeedSchema,
        response: { 200: calendarFeedSchema },
      },
    },
    async (request) =>
      updateCalendarFeed({
        db: request.db,
        key,
        actor: requireActor(request),
        appOrigin: appOriginOf(request, config),
        input: request.body,
      }),
  );

  api.post(
    "/api/account/calendar-feed/regenerate",
    {
      config: { access: "signedIn" },
      schema: {
        summary: "A new secret address for the signed-in user's calendar feed; the old one stops working at once",
        response: { 200: calendarFeedSchema },
      },
    },
    async (request) =>
      replaceCalendarFeedAddress({
        db: request.db,
        key,
        actor: requireActor(request),
        appOrigin: appOriginOf(request, config),
      }),
  );

  api.delete(
    "/api/account/calendar-feed",
    {
      config: { access: "signedIn" },
      schema: {
        summary: "Turn off the signed-in user's calendar feed: its address answers 404 from then on",
        response: { 204: z.void() },
      },
    },
    async (request, reply) => {
      await revokeCalendarFeed({ db: request.db, actor: requireActor(request) });
      return reply.status(204).send();
    },
  );

  api.get(
    "/api/calendar-feeds/:token.ics",
    {
      config: { access: "public" },
      schema: {
        summary:
          "A calendar feed, for a calendar app to subscribe to: the owner's open tasks as all-day events on their " +
          "due dates (RFC 5545). The secret address is its only credential; an unknown, replaced or turned-off one, " +
          "or a disabled user's, is a 404. Revalidate with If-None-Match (the ETag is the text's hash)",
        params: z.object({ token: calendarFeedTokenSchema }),
        response: { 200: calendarAnswer, 304: z.void() },
      },
    },
    async (request, reply) => {
      const text = await calendarFeedText({
        // Whoever else the request's cookies name, the feed is read by its secret alone.
        db: request.db,
        token: request.params.token,
        appOrigin: appOriginOf(request, config),
      });
      const body = Buffer.from(text, "utf8");
      const etag = `"${createHash("sha256").update(body).digest("base64url")}"`;
      reply.header("cache-control", FEED_CACHE_CONTROL).header("etag", etag);
      if (matchesEtag(request.headers["if-none-match"], etag)) return reply.status(304).send();
      return reply.type("text/calendar; charset=utf-8").send(body);
    },
  );
}

/** The app's public origin for absolute addresses: APP_ORIGIN, or the origin the request came to. */
function appOriginOf(request: FastifyRequest, config: Config): string {
  return config.appOrigin ?? `${request.protocol}://${request.host}`;
}
