import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { type UnsubscribeTopic, unsubscribeTopics } from "../../../shared/notifications";
import type { SealingKey } from "../../platform/sealed-secrets";

/** What an unsubscribe address turns off, for whom. */
export type Unsubscription = { firmId: string; userId: string; topic: UnsubscribeTopic };
/** What an address names, and when it was made (null for one made before addresses carried it). */
export type ReadUnsubscription = Unsubscription & { issuedAt: Date | null };

const macKeys = new WeakMap<SealingKey, Buffer>();

/**
 * The key unsubscribe addresses are signed with: derived from the app's sealing key (HKDF, its
 * own purpose), so there is no other secret to keep, and addresses stay good across restarts
 * and instances.
 */
function macKey(key: SealingKey): Buffer {
  let derived = macKeys.get(key);
  if (!derived) {
    derived = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), "tendwell one-click unsubscribe", 32));
    macKeys.set(key, derived);
  }
  return derived;
}

/** An HMAC-SHA256 cut to its first 128 bits, which is as hard to forge as its key is to guess. */
const mac = (key: SealingKey, payload: string) =>
  createHmac("sha256", macKey(key)).update(payload).digest().subarray(0, 16);

const uuidBytes = (id: string) => Buffer.from(id.replaceAll("-", ""), "hex");
const uuidText = (bytes: Buffer) =>
  bytes.toString("hex").replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");

/**
 * The secret of a one-click unsubscribe address (RFC 8058): the firm, the user, the topic and the
 * second it was made (for the message that carries it) as 37 bytes, and their MAC, both base64url
 * (73 characters, short enough for a path segment). It needs no row of its own and no sign-in, and
 * it can only turn off what it names; when it was made says when it stops working
 * (notifications.service.ts).
 */
export function unsubscribeToken(key: SealingKey, unsubscription: Unsubscription, issuedAt: Date): string {
  const { firmId, userId, topic } = unsubscription;
  const second = Buffer.alloc(4);
  second.writeUInt32BE(Math.floor(issuedAt.getTime() / 1000));
  const payload = Buffer.concat([
    uuidBytes(firmId),
    uuidBytes(userId),
    Buffer.from([unsubscribeTopics.indexOf(topic)]),
    second,
  ]);
  const text = payload.toString("base64url");
  return `${text}.${mac(key, text).toString("base64url")}`;
}

/**
 * What a secret names, or undefined when it is not one this key signed. A secret of 33 bytes was
 * made before secrets carried their time: it names its user and topic, made at a time unknown.
 */
export function readUnsubscribeToken(key: SealingKey, token: string): ReadUnsubscription | undefined {
  const [text = "", signature = ""] = token.split(".");
  const given = Buffer.from(signature, "base64url");
  // One spelling per secret: base64url's last character carries unused bits a decoder ignores.
  if (given.toString("base64url") !== signature) return undefined;
  const expected = mac(key, text);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const payload = Buffer.from(text, "base64url");
  const topic = unsubscribeTopics[payload[32] ?? -1];
  if ((payload.length !== 33 && payload.length !== 37) || topic === undefined) return undefined;
  const issuedAt = payload.length === 37 ? new Date(payload.readUInt32BE(33) * 1000) : null;
  return { firmId: uuidText(payload.subarray(0, 16)), userId: uuidText(payload.subarray(16, 32)), topic, issuedAt };
}
