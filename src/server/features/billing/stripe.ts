import Stripe from "stripe";
import type { StripeConfig } from "../../platform/config";
import { AppError } from "../../platform/errors";

export type StripeClient = Stripe;

/**
 * The one Stripe client of the app, built from the configuration (decision 0025). With
 * STRIPE_API_URL set (a local stand-in, as in the tests) API requests go there instead of
 * api.stripe.com; everything else is the SDK's own behaviour, retries included.
 */
export function createStripeClient(config: StripeConfig): StripeClient {
  const target = config.apiUrl ? new URL(config.apiUrl) : undefined;
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 1,
    timeout: 20_000,
    appInfo: { name: "Tendwell" },
    ...(target
      ? {
          host: target.hostname,
          port: target.port || (target.protocol === "https:" ? 443 : 80),
          protocol: target.protocol === "https:" ? "https" : "http",
        }
      : {}),
  });
}

/** What people see when Stripe cannot be reached or fails on its side. */
export const providerUnavailableMessage =
  "The payment provider cannot be reached right now. Please try again in a moment.";

/**
 * Stripe's failures in our error convention (decision 0025): a card or request Stripe refuses is
 * the caller's 400 with Stripe's own message; Stripe unreachable, failing on its side, limiting
 * us or refusing our key is a 503 (logged), never an unhandled 500. Anything else is rethrown.
 */
export function stripeFailure(error: unknown): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  if (error instanceof Stripe.errors.StripeCardError || error instanceof Stripe.errors.StripeInvalidRequestError) {
    return new AppError("BAD_REQUEST", error.message || "The payment provider refused the request");
  }
  return new AppError("SERVICE_UNAVAILABLE", providerUnavailableMessage);
}

/** Runs a Stripe call, mapping its failures with stripeFailure and logging the provider-side ones. */
export async function callStripe<T>(
  log: { warn: (details: object, message: string) => void },
  what: string,
  call: () => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const mapped = stripeFailure(error);
    if (mapped !== error) log.warn({ err: error }, `Stripe: ${what} failed`);
    throw mapped;
  }
}
