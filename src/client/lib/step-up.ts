import { createContext, useContext } from "react";
import { ApiError } from "./api";

/*
 * Step-up (decisions 0044, 0054): a sensitive change (the password, the sign-in factors, recovery
 * codes, the firm's policy, a role, a new or re-enabled admin, another user's factors) needs a
 * second factor, or the password for a user without one, within the last five minutes. The server says so with 403 STEP_UP_REQUIRED;
 * the app then asks once, in the "Confirm it's you" dialog, and sends the change again.
 */

export const isStepUpRequired = (error: unknown): boolean =>
  error instanceof ApiError && error.body?.code === "STEP_UP_REQUIRED";

/** Asks the person to confirm it's them: true once the server accepted the proof, false when they cancelled. */
export type ConfirmIdentity = () => Promise<boolean>;

/**
 * Sends `request`; when the server asks for a fresh proof, asks for one and sends the request again,
 * once. A cancelled confirmation fails with the server's refusal, so the caller reports that nothing
 * changed, as it would for any other refusal.
 */
export async function withStepUp<T>(request: () => Promise<T>, confirm: ConfirmIdentity): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (!isStepUpRequired(error) || !(await confirm())) throw error;
    return request();
  }
}

/** The confirmation of the one dialog the signed-in app mounts (features/mfa/step-up-provider.tsx). */
export const StepUpContext = createContext<ConfirmIdentity | null>(null);

/** `stepUp(request)`: sends the request, asking the person to confirm it's them when the server wants that. */
export function useStepUp(): <T>(request: () => Promise<T>) => Promise<T> {
  const confirm = useContext(StepUpContext);
  if (!confirm) throw new Error("useStepUp needs the step-up dialog's provider above it");
  return (request) => withStepUp(request, confirm);
}
