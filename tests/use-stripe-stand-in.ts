import { afterAll, beforeAll } from "vitest";
import { type StripeStandIn, startStripeStandIn, stripeTestKeys } from "./stripe-stand-in";

/**
 * The stand-in for one test file, started before the file's app (call this before useTestApp so
 * its beforeAll runs first) and stopped after. `env` is what the app needs to use it.
 */
export function useStripeStandIn(): StripeStandIn & { env: () => Record<string, string> } {
  let standIn: (StripeStandIn & { close: () => Promise<void> }) | undefined;
  beforeAll(async () => {
    standIn = await startStripeStandIn();
  });
  afterAll(async () => {
    await standIn?.close();
  });
  const get = () => {
    if (!standIn) throw new Error("the Stripe stand-in starts in beforeAll");
    return standIn;
  };
  return {
    get url() {
      return get().url;
    },
    get requests() {
      return get().requests;
    },
    get subscriptions() {
      return get().subscriptions;
    },
    get setupIntents() {
      return get().setupIntents;
    },
    fail: (failure) => get().fail(failure),
    env: () => ({ ...stripeTestKeys, STRIPE_API_URL: get().url }),
  };
}
