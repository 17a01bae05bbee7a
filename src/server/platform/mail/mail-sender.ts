import nodemailer from "nodemailer";
import { parseMailFrom } from "./mail-from";

/** One message as it leaves: to one person, in the firm's name, as plain text and HTML. */
export type OutgoingMail = {
  /** Its Message-ID, the same on every try (`<…@…>`), so a receiver can tell a repeat. */
  messageId: string;
  to: { name: string; address: string };
  /** The display name of the sender: the firm the recipient works in. */
  senderName: string;
  subject: string;
  text: string;
  html: string;
  /** Where one click unsubscribes (RFC 8058); none on security notices, which cannot be declined. */
  unsubscribeUrl?: string;
};

/**
 * What became of one try: sent (the server took it), or refused for now (a 4xx reply, a server
 * that cannot be reached: worth trying again later) or for good (a 5xx reply, an address the
 * server will never take: trying again cannot help).
 */
export type SendOutcome = { status: "sent" } | { status: "temporary" | "permanent"; reason: string };

export type MailSender = {
  send: (mail: OutgoingMail) => Promise<SendOutcome>;
  close: () => void;
};

/**
 * Sends over SMTP to the server `url` names (`smtp://user:pass@host:587`, `smtps://…:465`),
 * keeping up to two connections open between messages. `from` is MAIL_FROM, the address every
 * message is sent from; the firm's name is its display name, "Bright & Co via Tendwell" when
 * MAIL_FROM names a sender too (`Tendwell <noreply@example.com>`).
 */
export function smtpMailSender(options: { url: string; from: string }): MailSender {
  const sender = parseMailFrom(options.from);
  if (!sender) throw new Error(`MAIL_FROM is not an e-mail address: ${options.from}`);
  const url = new URL(options.url);
  url.searchParams.set("pool", "true");
  url.searchParams.set("maxConnections", url.searchParams.get("maxConnections") ?? "2");
  const transport = nodemailer.createTransport(url.toString());
  return {
    send: async (mail) => {
      try {
        await transport.sendMail({
          messageId: mail.messageId,
          from: {
            name: sender.name ? `${mail.senderName} via ${sender.name}` : mail.senderName,
            address: sender.address,
          },
          to: { name: mail.to.name, address: mail.to.address },
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          headers: mail.unsubscribeUrl
            ? {
                "List-Unsubscribe": `<${mail.unsubscribeUrl}>`,
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
              }
            : {},
        });
        return { status: "sent" };
      } catch (error) {
        return refusal(error as SmtpError);
      }
    },
    close: () => transport.close(),
  };
}

type SmtpError = Error & { responseCode?: number; code?: string; response?: string };

/** A failed try, judged by the server's reply code, or by what went wrong before any reply. */
function refusal(error: SmtpError): SendOutcome {
  const reason = error.response ?? error.message;
  if (error.responseCode !== undefined) {
    return { status: error.responseCode >= 500 ? "permanent" : "temporary", reason };
  }
  // No reply: a message nodemailer itself refuses (no recipient, an address it cannot encode)
  // never goes; a connection, a timeout, TLS or a DNS lookup may work next time.
  return { status: error.code === "EENVELOPE" || error.code === "EMESSAGE" ? "permanent" : "temporary", reason };
}
