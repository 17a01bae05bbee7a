import type { FastifyInstance } from "fastify";
import { MAIL_OUTBOX_PAGE_SIZE, mailOutboxPageSchema, mailOutboxQuerySchema } from "../../../shared/mail-outbox";
import { NEXT_CURSOR_HEADER } from "../../../shared/paging";
import type { Config } from "../../platform/config";
import type { ZodTypeProvider } from "../../platform/http";
import { sendNextCursor } from "../../platform/keyset";
import { requireActor } from "../../tenancy/actor";
import { listOutboxMessages } from "./mail-outbox.service";

/*
 * The firm's outgoing e-mail (decision 0049), for its super admins: Settings' "Outgoing mail".
 * The page is an object rather than a bare array, as it also says whether this server sends mail;
 * its next page's cursor travels in the header, as every list's does (src/shared/paging.ts).
 */
export function mailOutboxRoutes(app: FastifyInstance, { config }: { config: Pick<Config, "mail"> }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const delivery = config.mail.smtpUrl === undefined ? "kept" : "smtp";

  api.get(
    "/api/mail-outbox",
    {
      config: { access: "mail.read" },
      schema: {
        summary:
          "The firm's e-mail as the outbox holds it, newest first, " +
          `${MAIL_OUTBOX_PAGE_SIZE} a page (the next page's cursor comes in ${NEXT_CURSOR_HEADER}): each message's ` +
          "kind, recipient, subject, status (pending, sending, sent, kept or failed), tries, next try, last error, " +
          "times and plain text; status= for one status only. delivery says whether this server sends mail " +
          '("smtp") or keeps each message in the outbox and the log ("kept", without SMTP_URL)',
        querystring: mailOutboxQuerySchema,
        response: { 200: mailOutboxPageSchema },
      },
    },
    async (request, reply) => {
      const { nextCursor, ...page } = await listOutboxMessages({
        db: request.db,
        actor: requireActor(request),
        query: request.query,
        delivery,
      });
      sendNextCursor(reply, nextCursor);
      return page;
    },
  );
}
