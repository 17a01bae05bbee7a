import { describe, expect, it } from "vitest";
import { useSmtpInbox } from "../../../../tests/smtp-inbox";
import { type OutgoingMail, smtpMailSender } from "./mail-sender";

const mail = (overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({
  messageId: `<outbox-${crypto.randomUUID()}@tendwell.test>`,
  to: { name: "Ann Lee", address: "ann@example.com" },
  senderName: "Bright & Co, Accountants",
  subject: "3 tasks due on Monday, 30 November",
  text: "Hello Ann,\n\nVAT return for Acme Ltd is due on Monday, 30 November.",
  html: "<p>Hello Ann,</p><p>VAT return for <b>Acme Ltd</b> is due on Monday, 30 November.</p>",
  ...overrides,
});

describe("sending over SMTP (a real server in this process)", () => {
  const smtp = useSmtpInbox();

  it("S-MAIL-01 delivers both parts from the firm's name at MAIL_FROM, with its Message-ID and one-click unsubscribe", async () => {
    const message = mail({ unsubscribeUrl: "https://tendwell.test/api/unsubscribe/abc.def" });
    expect(await smtp.sender.send(message)).toEqual({ status: "sent" });
    const arrived = smtp.inbox.received.at(-1);
    expect(arrived?.envelopeTo).toEqual(["ann@example.com"]);
    const parsed = arrived?.parsed;
    expect(parsed?.from?.value).toEqual([{ name: "Bright & Co, Accountants", address: "notifications@tendwell.test" }]);
    expect(parsed?.messageId).toBe(message.messageId);
    expect(parsed?.subject).toBe(message.subject);
    expect(parsed?.text?.trim()).toBe(message.text);
    expect(parsed?.html).toContain("<b>Acme Ltd</b>");
    // mailparser folds the List-* headers into one object; the raw text is what a mailbox reads.
    expect(arrived?.raw).toMatch(/^List-Unsubscribe: <https:\/\/tendwell\.test\/api\/unsubscribe\/abc\.def>\r$/m);
    expect(arrived?.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
  });

  it("S-MAIL-01 sends a security notice without unsubscribe headers", async () => {
    expect(await smtp.sender.send(mail())).toEqual({ status: "sent" });
    expect(smtp.inbox.received.at(-1)?.raw).not.toMatch(/^List-Unsubscribe/im);
  });

  it("S-MAIL-01 with MAIL_FROM naming a sender (Tendwell <noreply@...>), sends from the firm's name via that sender", async () => {
    const named = smtpMailSender({ url: smtp.inbox.url, from: '"Tendwell, Inc." <noreply@tendwell.test>' });
    try {
      expect(await named.send(mail())).toEqual({ status: "sent" });
    } finally {
      named.close();
    }
    expect(smtp.inbox.received.at(-1)?.parsed.from?.value).toEqual([
      { name: "Bright & Co, Accountants via Tendwell, Inc.", address: "noreply@tendwell.test" },
    ]);
  });

  it("S-MAIL-02 tells a refusal for now (4xx) from one for good (5xx) and from a server it cannot reach", async () => {
    smtp.inbox.refuse("busy@example.com", 451, "Mailbox busy, try again later");
    smtp.inbox.refuse("gone@example.com", 550, "No such user here");
    const busy = await smtp.sender.send(mail({ to: { name: "B", address: "busy@example.com" } }));
    expect(busy).toMatchObject({ status: "temporary", reason: expect.stringContaining("451") });
    const gone = await smtp.sender.send(mail({ to: { name: "G", address: "gone@example.com" } }));
    expect(gone).toMatchObject({ status: "permanent", reason: expect.stringContaining("550") });
    const nowhere = smtpMailSender({ url: "smtp://127.0.0.1:9", from: "notifications@tendwell.test" });
    expect(await nowhere.send(mail())).toMatchObject({ status: "temporary" });
    nowhere.close();
  });
});
