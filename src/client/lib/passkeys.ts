import type { AddPasskeyInput, PasskeyCreationOptions, PasskeyRequestOptions, UsePasskeyInput } from "../../shared/mfa";
import { ApiError, errorMessage } from "./api";

/*
 * Passkeys in the browser (decision 0044), through @simplewebauthn/browser. The library is loaded
 * when a passkey is first made or used, never with a screen: most visits never touch one, and the
 * dashboard's bundle stays lean.
 */

/**
 * Whether this browser can make and use passkeys here, so a screen offers them only then: it has
 * WebAuthn (the check browserSupportsWebAuthn() makes, without loading the library for it), and the
 * site is reached by a name, as WebAuthn requires (a passkey is tied to the site's domain: none
 * works on an IP address).
 */
export function passkeysSupported(): boolean {
  if (typeof window === "undefined" || typeof window.PublicKeyCredential !== "function") return false;
  const host = window.location.hostname;
  return host === "localhost" || /^([a-z0-9]+(-[a-z0-9]+)*\.)+[a-z]{2,}$/i.test(host);
}

/** Asks the browser to make a passkey with the server's options: its answer, to send back. */
export async function createPasskey(options: PasskeyCreationOptions): Promise<AddPasskeyInput["response"]> {
  const { startRegistration } = await import("@simplewebauthn/browser");
  // The server's options are WebAuthn's own JSON; only transports are typed looser on our side.
  const response = await startRegistration({
    optionsJSON: options as Parameters<typeof startRegistration>[0]["optionsJSON"],
  });
  return { ...response, clientExtensionResults: { ...response.clientExtensionResults } };
}

/** Asks the browser to sign the server's challenge with a passkey: its answer, to send back. */
export async function signWithPasskey(options: PasskeyRequestOptions): Promise<UsePasskeyInput["response"]> {
  const { startAuthentication } = await import("@simplewebauthn/browser");
  const response = await startAuthentication({
    optionsJSON: options as Parameters<typeof startAuthentication>[0]["optionsJSON"],
  });
  return { ...response, clientExtensionResults: { ...response.clientExtensionResults } };
}

/**
 * Whether the person closed the browser's passkey prompt, or let it time out (the browser does not
 * tell the two apart: both are a NotAllowedError), or another prompt replaced it (AbortError).
 * Nothing went wrong: they may try again or choose another way.
 */
export function isPasskeyCancelled(error: unknown): boolean {
  return error instanceof Error && (error.name === "NotAllowedError" || error.name === "AbortError");
}

/** The calm words for a closed prompt, on every screen that offers a passkey. */
export const passkeyCancelledMessage = "No passkey was used. Try again when you're ready, or use another way.";

/**
 * What to tell a person when a passkey did not work: the server's own message (a refused passkey:
 * "The passkey was not accepted. Try again, or use another way."), or what the browser's refusal
 * means, never its technical text.
 */
export function passkeyErrorMessage(error: unknown): string {
  if (error instanceof ApiError)
    return errorMessage(error, "The passkey was not accepted. Try again, or use another way.");
  if (error instanceof Error && error.name === "InvalidStateError") {
    return "This device already holds a passkey for your account. Use it, or add one on another device.";
  }
  return "Your browser could not use a passkey. Try again, or use another way.";
}

/** A passkey's outcome as a screen shows it: calm after a closed prompt, an alert otherwise. */
export type PasskeyProblem = { cancelled: boolean; message: string };

export function passkeyProblem(error: unknown): PasskeyProblem {
  return isPasskeyCancelled(error)
    ? { cancelled: true, message: passkeyCancelledMessage }
    : { cancelled: false, message: passkeyErrorMessage(error) };
}
