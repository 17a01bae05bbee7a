/** What a message says: a greeting, paragraphs of plain text, and a closing line in small print. */
export type MailContent = { greeting: string; paragraphs: string[]; footer: string };

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The message as its two parts: plain text, which every mail program can show, and the same words
 * as simple HTML (inline styles only: mail programs drop style sheets). Every text is escaped, so a
 * name such as `<b>Acme</b>` reads as written.
 */
export function composeMail(content: MailContent): { text: string; html: string } {
  const text = [content.greeting, ...content.paragraphs, "--", content.footer].join("\n\n");
  const paragraph = (words: string) => `<p style="margin:0 0 16px">${escapeHtml(words)}</p>`;
  const html = [
    "<!doctype html>",
    '<html><body style="margin:0;padding:24px;background:#f6f7f9">',
    '<div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border-radius:8px;' +
      'font:15px/1.5 -apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2937">',
    paragraph(content.greeting),
    ...content.paragraphs.map(paragraph),
    `<p style="margin:24px 0 0;font-size:13px;color:#6b7280">${escapeHtml(content.footer)}</p>`,
    "</div></body></html>",
  ].join("\n");
  return { text, html };
}
