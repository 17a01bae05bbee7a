import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";
import type { PasskeyCreationOptions, PasskeyRequestOptions } from "../src/shared/mfa";

/*
 * A passkey authenticator in software, for the API tests (the browser tests use Chromium's own
 * virtual authenticator): it makes ES256 credentials and signs as WebAuthn Level 2 says, with
 * "none" attestation, so the server's real verification (@simplewebauthn/server) checks what
 * it makes. It answers for one origin, as a browser would.
 */

const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash("sha256").update(data).digest());
const b64 = (bytes: Uint8Array) => isoBase64URL.fromBuffer(Uint8Array.from(bytes));
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const uint32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return new Uint8Array(bytes);
};

/** Authenticator data flags (WebAuthn 6.1): user present, user verified, attested credential data. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

type Credential = { id: Uint8Array; privateKey: KeyObject; userHandle: string; counter: number };

export function softwareAuthenticator(origin: string, options: { counts?: boolean } = {}) {
  const credentials: Credential[] = [];
  const counts = options.counts ?? true;

  function register(created: PasskeyCreationOptions, behaviour: { userVerified?: boolean; origin?: string } = {}) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(jwk.x ?? "")],
      [-3, isoBase64URL.toBuffer(jwk.y ?? "")],
    ]);
    const id = new Uint8Array(randomBytes(16));
    const idLength = new Uint8Array([id.length >> 8, id.length & 0xff]);
    const flags = UP | AT | (behaviour.userVerified === false ? 0 : UV);
    const authData = concat(
      sha256(created.rp.id),
      new Uint8Array([flags]),
      uint32(0),
      new Uint8Array(16), // AAGUID: none
      idLength,
      id,
      isoCBOR.encode(coseKey),
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ["fmt", "none"],
        ["attStmt", new Map<string, string>()],
        ["authData", authData],
      ]),
    );
    const clientData = JSON.stringify({
      type: "webauthn.create",
      challenge: created.challenge,
      origin: behaviour.origin ?? origin,
      crossOrigin: false,
    });
    credentials.push({ id, privateKey, userHandle: created.user.id, counter: 0 });
    return {
      id: b64(id),
      rawId: b64(id),
      type: "public-key" as const,
      response: {
        clientDataJSON: b64(new TextEncoder().encode(clientData)),
        attestationObject: b64(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
    };
  }

  /** Signs a request's challenge with the first credential it allows (any, when it names none). */
  function assert(requested: PasskeyRequestOptions, behaviour: { userVerified?: boolean; rpId?: string } = {}) {
    const allowed = new Set(requested.allowCredentials.map((each) => each.id));
    const credential = credentials.find((each) => allowed.size === 0 || allowed.has(b64(each.id)));
    if (!credential) throw new Error("no credential for this request");
    if (counts) credential.counter += 1;
    const flags = UP | (behaviour.userVerified === false ? 0 : UV);
    const authData = concat(
      sha256(behaviour.rpId ?? requested.rpId),
      new Uint8Array([flags]),
      uint32(credential.counter),
    );
    const clientData = new TextEncoder().encode(
      JSON.stringify({ type: "webauthn.get", challenge: requested.challenge, origin, crossOrigin: false }),
    );
    const signature = sign("sha256", concat(authData, sha256(clientData)), credential.privateKey);
    return {
      id: b64(credential.id),
      rawId: b64(credential.id),
      type: "public-key" as const,
      response: {
        clientDataJSON: b64(clientData),
        authenticatorData: b64(authData),
        signature: b64(new Uint8Array(signature)),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
    };
  }

  return { register, assert, credentials };
}
