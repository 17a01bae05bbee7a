import type { Page } from "@playwright/test";

/*
 * A stand-in for Stripe.js in the browser, because the network is closed here (as
 * tests/stripe-stand-in.ts stands in for Stripe's HTTP API on the server). @stripe/stripe-js
 * loads https://js.stripe.com/<release>/stripe.js; the test answers that request with this
 * script. It implements only what @stripe/react-stripe-js and the payment screen call: Elements
 * with a card-only Payment Element and `confirmSetup`. Every call is recorded on
 * `window.__stripeStandIn` so a test can check what the page asked Stripe to do. As in Stripe's
 * test mode, "4000 0000 0000 0002" is declined with Stripe's own message, and the 3-D Secure cards
 * leave the page for the bank's check and come back to `return_url` with the outcome, as Stripe
 * does when `redirect: "if_required"` finds a redirect required. Two more cards stand for failures
 * Stripe.js can give: an error that carries no message, and a call that throws.
 */

export type StripeStandInCall = { method: string; args: unknown };
export const declinedCard = "4000000000000002";
export const declinedMessage = "Your card was declined.";
/** Needs 3-D Secure: the check passes. */
export const authenticatedCard = "4000002500003155";
/** Needs 3-D Secure: the check fails. */
export const failedAuthenticationCard = "4000008260003178";
/** `confirmSetup` answers an error without a message (Stripe's processing error card number). */
export const unexplainedErrorCard = "4000000000000119";
/** `confirmSetup` throws instead of answering, as when Stripe.js itself breaks. */
export const throwingCard = "4000000000000101";

function stripeJs(
  releaseTrain: string,
  declined: string,
  declinedText: string,
  authenticated: string,
  failedAuthentication: string,
  unexplainedError: string,
  throwing: string,
) {
  type Handler = (event: unknown) => void;
  const calls: StripeStandInCall[] = [];
  (window as unknown as { __stripeStandIn: StripeStandInCall[] }).__stripeStandIn = calls;
  let cardInput: HTMLInputElement | undefined;
  let clientSecret = "";

  const createElement = (type: string) => {
    const handlers = new Map<string, Handler[]>();
    const emit = (name: string, event: unknown) => {
      for (const handler of handlers.get(name) ?? []) handler(event);
    };
    let container: HTMLElement | undefined;
    return {
      mount(target: HTMLElement | string) {
        container = typeof target === "string" ? (document.querySelector(target) as HTMLElement) : target;
        const label = document.createElement("label");
        label.textContent = "Card number";
        const input = document.createElement("input");
        input.name = "cardnumber";
        input.autocomplete = "cc-number";
        input.inputMode = "numeric";
        input.addEventListener("input", () =>
          emit("change", { elementType: type, complete: input.value.length >= 16 }),
        );
        label.append(input);
        container.append(label);
        cardInput = input;
        setTimeout(() => emit("ready", { elementType: type }), 0);
      },
      on(name: string, handler: Handler) {
        handlers.set(name, [...(handlers.get(name) ?? []), handler]);
        // Stripe's frame is ready long after mount; a handler attached after that still hears it.
        if (name === "ready" && container) setTimeout(() => handler({ elementType: type }), 0);
      },
      off(name: string, handler: Handler) {
        handlers.set(
          name,
          (handlers.get(name) ?? []).filter((existing) => existing !== handler),
        );
      },
      update() {},
      focus() {
        cardInput?.focus();
      },
      blur() {},
      clear() {
        if (cardInput) cardInput.value = "";
      },
      unmount() {
        container?.replaceChildren();
      },
      destroy() {
        container?.replaceChildren();
      },
    };
  };

  const unused = (name: string) => () => {
    throw new Error(`The Stripe.js stand-in does not implement ${name}`);
  };

  function Stripe(publishableKey: string, options?: unknown) {
    calls.push({ method: "Stripe", args: { publishableKey, options } });
    return {
      _registerWrapper() {},
      registerAppInfo() {},
      // Present because @stripe/react-stripe-js checks for them; the payment screen never calls them.
      createToken: unused("createToken"),
      createPaymentMethod: unused("createPaymentMethod"),
      confirmCardPayment: unused("confirmCardPayment"),
      elements(options: { clientSecret?: string }) {
        calls.push({ method: "elements", args: options });
        clientSecret = options.clientSecret ?? "";
        return {
          create(type: string, createOptions: unknown) {
            calls.push({ method: "elements.create", args: { type, options: createOptions } });
            return createElement(type);
          },
          getElement() {
            return null;
          },
          update() {},
          fetchUpdates: async () => ({}),
          submit: async () => ({}),
        };
      },
      async confirmSetup(params: { confirmParams?: { return_url?: string }; redirect?: string }) {
        calls.push({
          method: "confirmSetup",
          args: { confirmParams: params.confirmParams, redirect: params.redirect },
        });
        const number = (cardInput?.value ?? "").replace(/\s/g, "");
        if (number === declined) {
          return { error: { type: "card_error", code: "card_declined", message: declinedText } };
        }
        if (number === unexplainedError) return { error: { type: "api_error", code: "processing_error" } };
        if (number === throwing) throw new Error("The Stripe.js stand-in broke");
        if (number === authenticated || number === failedAuthentication) {
          sessionStorage.setItem("__stripeStandInCalls", JSON.stringify(calls));
          const back = new URL(params.confirmParams?.return_url ?? "/", window.location.href);
          back.searchParams.set("setup_intent", clientSecret.split("_secret_")[0] ?? "");
          back.searchParams.set("setup_intent_client_secret", clientSecret);
          back.searchParams.set("redirect_status", number === authenticated ? "succeeded" : "failed");
          window.location.assign(back.toString());
          // Stripe's promise does not settle when it leaves the page.
          return new Promise(() => {});
        }
        return { setupIntent: { id: "seti_stand_in", object: "setup_intent", status: "succeeded" } };
      },
    };
  }
  Stripe.version = releaseTrain;
  (window as unknown as { Stripe: typeof Stripe }).Stripe = Stripe;
}

/** Answers the page's request for Stripe.js with the stand-in. */
export async function installStripeJsStandIn(page: Page): Promise<void> {
  await page.route("https://js.stripe.com/**", (route) => {
    const release = new URL(route.request().url()).pathname.split("/")[1] ?? "v3";
    const args = [
      release,
      declinedCard,
      declinedMessage,
      authenticatedCard,
      failedAuthenticationCard,
      unexplainedErrorCard,
      throwingCard,
    ]
      .map((value) => JSON.stringify(value))
      .join(", ");
    return route.fulfill({ contentType: "text/javascript", body: `(${stripeJs.toString()})(${args});` });
  });
}

/** What the page asked the stand-in to do, in order (kept across the redirect of a 3-D Secure card). */
export async function stripeStandInCalls(page: Page): Promise<StripeStandInCall[]> {
  return page.evaluate(
    () =>
      (window as unknown as { __stripeStandIn?: StripeStandInCall[] }).__stripeStandIn ??
      (JSON.parse(sessionStorage.getItem("__stripeStandInCalls") ?? "[]") as StripeStandInCall[]),
  );
}
