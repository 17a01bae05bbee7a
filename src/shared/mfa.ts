import { z } from "zod";
import { passwordSchema } from "./auth";
import { currentUserSchema } from "./users";
import "./validation";

/*
 * Multi-factor sign-in (decision 0044): the shapes the second step of sign-in, the enrolment of
 * factors, the recovery codes, the step-up check and the firm's policy share between the screens
 * and the routes. Codes are never part of an answer after the one that hands them out.
 */

export const factorKinds = ["totp", "passkey"] as const;
export type FactorKind = (typeof factorKinds)[number];

/** How a pending sign-in or a step-up may be completed. */
export const secondFactorMethods = ["totp", "passkey", "recovery_code"] as const;
export type SecondFactorMethod = (typeof secondFactorMethods)[number];

export const mfaPolicies = ["optional", "required"] as const;
export type MfaPolicy = (typeof mfaPolicies)[number];

/** Recovery codes a user holds at a time; a new set voids the old one. */
export const RECOVERY_CODE_COUNT = 10;
/** How long a pending sign-in lasts, and how long a step-up check stays fresh. */
export const PENDING_SIGN_IN_MINUTES = 5;
export const STEP_UP_MINUTES = 5;
/** A new firm's grace before its policy, required, applies: time for everyone to enrol. */
export const MFA_GRACE_DAYS = 7;

const totpMessage = "Enter the 6-digit code from your authenticator app";
/** An authenticator app's code; spaces (as some apps show "123 456") are dropped. */
export const totpCodeSchema = z
  .string({ error: totpMessage })
  .max(20, totpMessage)
  .transform((value) => value.replace(/\s/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, totpMessage));

const recoveryMessage = "Enter one of your recovery codes, such as abcd-efgh-ijkl-mnop";
/** A recovery code as given (`abcd-efgh-ijkl-mnop`), in any case, with or without dashes and spaces. */
export const recoveryCodeSchema = z
  .string({ error: recoveryMessage })
  .max(40, recoveryMessage)
  .transform((value) => value.replace(/[\s-]/g, "").toLowerCase())
  .pipe(z.string().regex(/^[a-z2-7]{16}$/, recoveryMessage));

/** POST /api/auth/second-step: an authenticator code or a recovery code (passkeys have routes of their own). */
export const secondFactorSchema = z.discriminatedUnion(
  "method",
  [
    z.strictObject({ method: z.literal("totp"), code: totpCodeSchema }),
    z.strictObject({ method: z.literal("recovery_code"), code: recoveryCodeSchema }),
  ],
  { error: "Choose how to confirm: totp or recovery_code" },
);
export type SecondFactorInput = z.infer<typeof secondFactorSchema>;

/** POST /api/auth/step-up: a fresh second factor, or the password where the user has no factor. */
export const stepUpSchema = z.discriminatedUnion(
  "method",
  [
    z.strictObject({ method: z.literal("totp"), code: totpCodeSchema }),
    z.strictObject({ method: z.literal("recovery_code"), code: recoveryCodeSchema }),
    z.strictObject({ method: z.literal("password"), password: passwordSchema }),
    z.strictObject({ method: z.literal("passkey"), response: z.lazy(() => passkeyAssertionSchema) }),
  ],
  { error: "Choose how to confirm: totp, recovery_code, password or passkey" },
);
export type StepUpInput = z.infer<typeof stepUpSchema>;

/**
 * Where a sign-in stands after the password, when a session is not made yet (202 from POST
 * /api/auth/login, and GET /api/auth/second-step): the second factor is asked for, or, where the
 * firm requires one and the user has none, enrolment comes first. `methods` are the user's.
 */
export const pendingSignInSchema = z.object({
  next: z.enum(["second_factor", "enrol"]),
  methods: z.array(z.enum(secondFactorMethods)),
  expiresAt: z.iso.datetime(),
});
export type PendingSignIn = z.infer<typeof pendingSignInSchema>;

/** A completed second step: the user, and after a recovery code how many codes remain. */
export const signedInSchema = z.object({
  user: currentUserSchema,
  recoveryCodesLeft: z.number().int().nullable(),
});
export type SignedIn = z.infer<typeof signedInSchema>;

/** An authenticator app being added: the secret to type in, the address its QR code holds, the QR code. */
export const totpEnrolmentSchema = z.object({
  /** Base32, in groups of four for typing. */
  secret: z.string(),
  uri: z.string(),
  /** An SVG image of the QR code, as a data: URL for an <img>. */
  qrCode: z.string(),
});
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;

const factorNameSchema = z
  .string({ error: "Give it a name, such as the phone it is on" })
  .trim()
  .min(1, "Give it a name, such as the phone it is on")
  .max(60, "Name must be at most 60 characters");

/** Confirming an authenticator app: one code it shows, and a name to tell it apart. */
export const confirmTotpSchema = z.strictObject({
  code: totpCodeSchema,
  name: factorNameSchema.optional(),
});
export type ConfirmTotpInput = z.infer<typeof confirmTotpSchema>;

export const renameFactorSchema = z.strictObject({ name: factorNameSchema });

export const factorSchema = z.object({
  id: z.uuid(),
  kind: z.enum(factorKinds),
  name: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type Factor = z.infer<typeof factorSchema>;

/** A set of recovery codes, shown once. */
export const recoveryCodesSchema = z.object({ codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** A factor added: the factor, and the recovery codes when it was the user's first. */
export const enrolledSchema = z.object({
  factor: factorSchema,
  recoveryCodes: z.array(z.string()).nullable(),
});
export type Enrolled = z.infer<typeof enrolledSchema>;

/** A factor added while enrolment was what a sign-in waited for: the sign-in is then complete. */
export const enrolledAndSignedInSchema = enrolledSchema.extend({ user: currentUserSchema });
export type EnrolledAndSignedIn = z.infer<typeof enrolledAndSignedInSchema>;

/** The firm's rule: optional, or required from a moment on (a new firm: after its grace). */
export const firmMfaPolicySchema = z.object({
  policy: z.enum(mfaPolicies),
  requiredFrom: z.iso.datetime().nullable(),
});
export type FirmMfaPolicy = z.infer<typeof firmMfaPolicySchema>;

export const updateMfaPolicySchema = z.strictObject({
  policy: z.enum(mfaPolicies, { error: "Choose optional or required" }),
});
export type UpdateMfaPolicyInput = z.infer<typeof updateMfaPolicySchema>;

/** GET /api/account/security: the signed-in user's factors, recovery codes left, and the firm's rule. */
export const accountSecuritySchema = z.object({
  factors: z.array(factorSchema),
  recoveryCodesLeft: z.number().int(),
  firmPolicy: firmMfaPolicySchema,
  /** Until when the session's last step-up check counts as fresh; null when it does not. */
  stepUpUntil: z.iso.datetime().nullable(),
});
export type AccountSecurity = z.infer<typeof accountSecuritySchema>;

/*
 * Passkeys (WebAuthn, through @simplewebauthn): the options the browser is handed and the
 * credential it answers with, as JSON (base64url for bytes). The server checks each answer
 * against the challenge it kept; these shapes only keep out what cannot be one.
 */

/** Every field of a passkey answer is filled by the browser, not typed: one message for them all. */
const notAPasskeyAnswer = { error: "Not a passkey answer" };

const base64url = z
  .string(notAPasskeyAnswer)
  .max(16_384, notAPasskeyAnswer)
  .regex(/^[A-Za-z0-9_-]*$/, notAPasskeyAnswer);

const credentialDescriptorSchema = z.object({
  id: z.string(),
  type: z.literal("public-key"),
  transports: z.array(z.string()).optional(),
});

/** What navigator.credentials.create() is handed to add a passkey. */
export const passkeyCreationOptionsSchema = z.object({
  rp: z.object({ name: z.string(), id: z.string() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.literal("public-key") })),
  timeout: z.number(),
  excludeCredentials: z.array(credentialDescriptorSchema),
  authenticatorSelection: z.object({
    residentKey: z.enum(["discouraged", "preferred", "required"]),
    requireResidentKey: z.boolean(),
    userVerification: z.enum(["discouraged", "preferred", "required"]),
  }),
  attestation: z.enum(["none", "indirect", "direct", "enterprise"]),
  extensions: z.object({ credProps: z.boolean() }),
});
export type PasskeyCreationOptions = z.infer<typeof passkeyCreationOptionsSchema>;

/** What navigator.credentials.get() is handed to sign with a passkey. */
export const passkeyRequestOptionsSchema = z.object({
  challenge: z.string(),
  timeout: z.number(),
  rpId: z.string(),
  allowCredentials: z.array(credentialDescriptorSchema),
  userVerification: z.enum(["discouraged", "preferred", "required"]),
});
export type PasskeyRequestOptions = z.infer<typeof passkeyRequestOptionsSchema>;

const passkeyCredentialFields = {
  id: base64url,
  rawId: base64url,
  type: z.literal("public-key", notAPasskeyAnswer),
  authenticatorAttachment: z.enum(["platform", "cross-platform"], notAPasskeyAnswer).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown(), notAPasskeyAnswer),
};

/** A new passkey, as the browser answers navigator.credentials.create(). */
export const passkeyRegistrationSchema = z.object(
  {
    ...passkeyCredentialFields,
    response: z.object(
      {
        clientDataJSON: base64url,
        attestationObject: base64url,
        authenticatorData: base64url.optional(),
        transports: z
          .array(z.string(notAPasskeyAnswer).max(32, notAPasskeyAnswer), notAPasskeyAnswer)
          .max(10, notAPasskeyAnswer)
          .optional(),
        publicKeyAlgorithm: z.number(notAPasskeyAnswer).optional(),
        publicKey: base64url.optional(),
      },
      notAPasskeyAnswer,
    ),
  },
  notAPasskeyAnswer,
);

/** A signature with a passkey, as the browser answers navigator.credentials.get(). */
export const passkeyAssertionSchema = z.object(
  {
    ...passkeyCredentialFields,
    response: z.object(
      {
        clientDataJSON: base64url,
        authenticatorData: base64url,
        signature: base64url,
        userHandle: base64url.optional(),
      },
      notAPasskeyAnswer,
    ),
  },
  notAPasskeyAnswer,
);

/** Adding a passkey: the browser's answer, and a name to tell it apart. */
export const addPasskeySchema = z.strictObject({
  name: factorNameSchema.optional(),
  response: passkeyRegistrationSchema,
});
export type AddPasskeyInput = z.infer<typeof addPasskeySchema>;

/** A sign-in, a second step or a step-up with a passkey: the browser's signature. */
export const usePasskeySchema = z.strictObject({ response: passkeyAssertionSchema });
export type UsePasskeyInput = z.infer<typeof usePasskeySchema>;
