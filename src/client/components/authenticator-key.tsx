import type { TotpEnrolment } from "../../shared/mfa";
import { CopyButton } from "./ui/copy-button";

/**
 * What an authenticator app needs to add an account: the QR code to scan, and the same key as text
 * for an app on the same device or a camera that cannot scan. The server gives the key in groups
 * of four, which are easier to type; apps ignore the spaces.
 */
export function AuthenticatorKey({ enrolment }: { enrolment: TotpEnrolment }) {
  return (
    <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
      <img
        src={enrolment.qrCode}
        alt="QR code to scan with your authenticator app"
        width={160}
        height={160}
        className="size-40 shrink-0 rounded-md border bg-white p-2"
      />
      <div className="flex min-w-0 flex-col gap-2 text-sm">
        <p>
          Scan the QR code with your authenticator app, such as Google Authenticator, Microsoft Authenticator or
          1Password.
        </p>
        <p className="text-muted-foreground">Can't scan it? Enter this key in the app instead:</p>
        <code className="rounded-md bg-muted px-3 py-2 font-mono text-sm break-words" data-testid="totp-secret">
          {enrolment.secret}
        </code>
        <CopyButton text={enrolment.secret.replace(/\s/g, "")} className="self-start">
          Copy key
        </CopyButton>
      </div>
    </div>
  );
}
