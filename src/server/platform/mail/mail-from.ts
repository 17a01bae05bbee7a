import addressparser from "nodemailer/lib/addressparser";
import { z } from "zod";

/** MAIL_FROM as a mail program reads a From header: an address, with or without a display name. */
export type MailFrom = { name: string | undefined; address: string };

/**
 * `noreply@example.com`, `Tendwell <noreply@example.com>` or `"Tendwell, Inc." <noreply@example.com>`
 * read with nodemailer's own address parser; undefined unless it is exactly one valid address.
 */
export function parseMailFrom(text: string): MailFrom | undefined {
  const parsed = addressparser(text, { flatten: true });
  const [only] = parsed;
  if (parsed.length !== 1 || !only || !z.email().safeParse(only.address).success) return undefined;
  return { name: only.name.trim() || undefined, address: only.address };
}
