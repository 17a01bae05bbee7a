import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll } from "vitest";
import { type MailSender, smtpMailSender } from "../src/server/platform/mail/mail-sender";

/**
 * A header of a raw message as a mail program reads it: unfolded (RFC 5322 2.2.3), so a long
 * value that was written over several lines reads as one; undefined when the message has none.
 */
export function headerOf(raw: string, name: string): string | undefined {
  const head = raw.slice(0, raw.indexOf("\r\n\r\n")).replace(/\r\n(?=[ \t])/g, "");
  const line = head.split("\r\n").find((each) => each.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** A message as the SMTP server received it: the envelope, the raw text and mailparser's reading. */
export type ReceivedMail = { envelopeTo: string[]; raw: string; parsed: ParsedMail };

/**
 * A real SMTP server in this process (smtp-server), keeping every message it accepts, parsed by
 * mailparser, so tests assert on what arrived. `refuse` makes it answer a recipient with an SMTP
 * reply code instead (451 for "try later", 550 for "no such mailbox").
 */
export async function startSmtpInbox() {
  const received: ReceivedMail[] = [];
  const refusals = new Map<string, { code: number; message: string }>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = refusals.get(address.address.toLowerCase());
      if (!refusal) return callback();
      callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw).then(
          (parsed) => {
            received.push({ envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw, parsed });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Answers `address` with `code` from now on; code 0 takes it again. */
    refuse: (address: string, code: number, message: string) => {
      if (code === 0) refusals.delete(address.toLowerCase());
      else refusals.set(address.toLowerCase(), { code, message });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type SmtpInbox = Awaited<ReturnType<typeof startSmtpInbox>>;

/**
 * An SMTP inbox for the tests of one file, and a sender to it from notifications@tendwell.test:
 * started before them, closed after. Read `inbox` and `sender` inside the tests.
 */
export function useSmtpInbox(): { readonly inbox: SmtpInbox; readonly sender: MailSender } {
  let inbox: SmtpInbox | undefined;
  let sender: MailSender | undefined;
  beforeAll(async () => {
    inbox = await startSmtpInbox();
    sender = smtpMailSender({ url: inbox.url, from: "notifications@tendwell.test" });
  });
  afterAll(async () => {
    sender?.close();
    await inbox?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the SMTP inbox starts in beforeAll");
    return value;
  };
  return {
    get inbox() {
      return started(inbox);
    },
    get sender() {
      return started(sender);
    },
  };
}
