import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  notificationPreferencesSchema,
  unsubscribedSchema,
  unsubscribeOfferSchema,
  unsubscribeTokenSchema,
} from "../../../shared/notifications";
import type { ZodTypeProvider } from "../../platform/http";
import type { SealingKey } from "../../platform/sealed-secrets";
import { requireActor } from "../../tenancy/actor";
import {
  myNotificationPreferences,
  setNotificationPreferences,
  unsubscribe,
  unsubscribeOffer,
} from "./notifications.service";

/*
 * E-mail preferences (decision 0050): the signed-in user's own, beside their other account
 * settings under /api/account, and the one-click unsubscribe address every reminder carries.
 */
export async function notificationsRoutes(
  app: FastifyInstance,
  { key, clock }: { key: SealingKey; clock: () => Date },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/account/notification-preferences",
    {
      config: { access: "signedIn" },
      schema: {
        summary:
          "The signed-in user's e-mail preferences: days before a due date to be reminded (null: none), " +
          "overdue alerts, and a digest of their work (off, daily or weekly)",
        response: { 200: notificationPreferencesSchema },
      },
    },
    async (request) => myNotificationPreferences({ db: request.db, actor: requireActor(request) }),
  );

  api.put(
    "/api/account/notification-preferences",
    {
      config: { access: "signedIn" },
      schema: {
        summary: "Replace the signed-in user's e-mail preferences",
        body: notificationPreferencesSchema,
        response: { 200: notificationPreferencesSchema },
      },
    },
    async (request) =>
      setNotificationPreferences({ db: request.db, actor: requireActor(request), input: request.body, now: clock() }),
  );

  // The page a message's unsubscribe link opens asks first: a GET changes nothing, since mail
  // scanners follow links. It needs no session either: the signed address is the proof.
  api.get(
    "/api/unsubscribe/:token",
    {
      config: { access: "public" },
      schema: {
        summary: "What an unsubscribe address would turn off, and whether it is on; changes nothing",
        params: z.object({ token: unsubscribeTokenSchema }),
        response: { 200: unsubscribeOfferSchema },
      },
    },
    async (request) => unsubscribeOffer({ db: request.db, key, token: request.params.token, now: clock() }),
  );

  // A mail program's one-click unsubscribe (RFC 8058) posts `List-Unsubscribe=One-Click` as a
  // form, from no page of ours and with no session: the signed address is its proof, as a
  // webhook's signature is, so the same-origin rule does not apply. Its body says nothing the
  // address does not: it is read as text and ignored, in a scope of its own.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    for (const type of ["application/x-www-form-urlencoded", "multipart/form-data", "application/json"]) {
      scope.addContentTypeParser(type, { parseAs: "string" }, (_request, _body, done) => done(null, undefined));
    }
    scope.withTypeProvider<ZodTypeProvider>().post(
      "/api/unsubscribe/:token",
      {
        config: { access: "public", webhook: true },
        schema: {
          summary:
            "One-click unsubscribe (RFC 8058) from a message's List-Unsubscribe address: turns off that kind of " +
            "message (reminders, overdue alerts or the digest) without a sign-in; the body (List-Unsubscribe=One-Click) is not needed",
          params: z.object({ token: unsubscribeTokenSchema }),
          response: { 200: unsubscribedSchema },
        },
      },
      async (request) => unsubscribe({ db: request.db, key, token: request.params.token, now: clock() }),
    );
  });
}
