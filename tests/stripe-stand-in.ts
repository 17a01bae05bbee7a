import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/*
 * A stand-in for the few Stripe API endpoints Tendwell calls, used ONLY because this machine's
 * network is closed: the tests run the real `stripe` SDK, pointed at this server through
 * STRIPE_API_URL. It reads the form-encoded bodies the SDK sends, answers Stripe-shaped JSON
 * (ids like cus_..., sub_..., seti_..._secret_...), records every request for assertions, and can
 * be told to fail as Stripe does (a declined card, a server error, a dropped connection). It is
 * not a Stripe emulator: it knows nothing beyond what these tests need. It imports nothing of
 * vitest, so a browser test's fixture can start it too (tests/use-stripe-stand-in.ts is the hook
 * for vitest files).
 */

export const stripeTestKeys = {
  STRIPE_SECRET_KEY: "sk_test_tendwell_stand_in",
  STRIPE_PUBLISHABLE_KEY: "pk_test_tendwell_stand_in",
  STRIPE_WEBHOOK_SECRET: "whsec_tendwell_stand_in",
  STRIPE_PRICE_STARTER: "price_starter_test",
  STRIPE_PRICE_PROFESSIONAL: "price_professional_test",
  STRIPE_PRICE_ENTERPRISE: "price_enterprise_test",
} as const;

export type RecordedRequest = {
  method: string;
  path: string;
  /** The form body as sent, flat: `items[0][price]`, `metadata[plan]`, `expand[0]`... */
  form: Record<string, string>;
  headers: http.IncomingHttpHeaders;
};

/** How the next requests fail, until told otherwise. */
export type Failure =
  | "card_declined"
  | "invalid_request"
  | "server_error"
  | "connection_reset"
  /** Subscriptions are created without a pending setup intent, so there is no card setup to confirm. */
  | "no_setup_intent"
  | null;

type StoredSubscription = {
  id: string;
  object: "subscription";
  customer: string;
  status: string;
  trial_end: number | null;
  created: number;
  metadata: Record<string, string>;
  items: {
    object: "list";
    data: { id: string; object: "subscription_item"; price: { id: string; object: "price" } }[];
  };
  pending_setup_intent: string;
};

type StoredSetupIntent = { id: string; object: "setup_intent"; client_secret: string; status: string };

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

export type StripeStandIn = {
  readonly url: string;
  readonly requests: RecordedRequest[];
  readonly subscriptions: Map<string, StoredSubscription>;
  readonly setupIntents: Map<string, StoredSetupIntent>;
  fail: (failure: Failure) => void;
};

/**
 * Starts the stand-in on 127.0.0.1 (`port` 0 picks a free one). A browser test, whose stand-in
 * runs in another process, steers it over HTTP: `POST /__stand-in/failure` with a Failure as the
 * body (`none` to stop failing) and `GET /__stand-in/requests` for what it recorded.
 */
export function startStripeStandIn(port = 0): Promise<StripeStandIn & { close: () => Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const subscriptions = new Map<string, StoredSubscription>();
  const setupIntents = new Map<string, StoredSetupIntent>();
  let failure: Failure = null;

  const send = (response: http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    response.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      "request-id": newId("req"),
      // As Stripe says of errors a retry cannot fix, so the SDK's retries stay out of the tests.
      ...(status >= 400 ? { "stripe-should-retry": "false" } : {}),
    });
    response.end(text);
  };
  const stripeError = (type: string, message: string, code?: string) => ({ error: { type, message, code } });
  /** A subscription as Stripe answers it: its pending setup intent as an id, or the object when expanded. */
  const withSetupIntent = (subscription: StoredSubscription, expanded: boolean) => ({
    ...subscription,
    pending_setup_intent: expanded
      ? (setupIntents.get(subscription.pending_setup_intent) ?? null)
      : subscription.pending_setup_intent,
  });

  const server = http.createServer((request, response) => {
    let raw = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      raw += chunk;
    });
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://stand-in");
      if (url.pathname === "/__stand-in/failure" && request.method === "POST") {
        failure = raw === "none" ? null : (raw as Failure);
        send(response, 200, { failure });
        return;
      }
      if (url.pathname === "/__stand-in/requests") {
        send(
          response,
          200,
          requests.map(({ headers: _headers, ...rest }) => rest),
        );
        return;
      }
      // The SDK sends a POST's parameters as a form body, and a GET's or DELETE's in the query.
      const form = Object.fromEntries(request.method === "POST" ? new URLSearchParams(raw) : url.searchParams);
      requests.push({ method: request.method ?? "", path: url.pathname, form, headers: request.headers });
      if (failure === "connection_reset") {
        request.socket.destroy();
        return;
      }
      if (failure === "server_error") {
        send(response, 500, stripeError("api_error", "An unknown error occurred"));
        return;
      }
      if (failure === "card_declined") {
        send(response, 402, stripeError("card_error", "Your card was declined.", "card_declined"));
        return;
      }
      if (failure === "invalid_request") {
        send(response, 400, stripeError("invalid_request_error", "Invalid email address: nope", "email_invalid"));
        return;
      }
      const now = Math.floor(Date.now() / 1000);
      const subscriptionPath = /^\/v1\/subscriptions\/(sub_[a-z0-9]+)$/.exec(url.pathname);
      const customerPath = /^\/v1\/customers\/(cus_[a-z0-9]+)$/.exec(url.pathname);
      const expands = (field: string) =>
        Object.entries(form).some(([key, value]) => key.startsWith("expand[") && value === field);

      if (request.method === "POST" && url.pathname === "/v1/customers") {
        send(response, 200, {
          id: newId("cus"),
          object: "customer",
          email: form.email ?? null,
          name: form.name ?? null,
          metadata: metadataOf(form),
          created: now,
        });
      } else if (request.method === "POST" && url.pathname === "/v1/subscriptions") {
        const price = form["items[0][price]"];
        if (!form.customer || !price) {
          send(response, 400, stripeError("invalid_request_error", "Missing required param: items[0][price]."));
          return;
        }
        const setupIntentId = newId("seti");
        const setupIntent = {
          id: setupIntentId,
          object: "setup_intent" as const,
          client_secret: `${setupIntentId}_secret_${randomBytes(12).toString("hex")}`,
          status: "requires_payment_method",
        };
        setupIntents.set(setupIntentId, setupIntent);
        const trialDays = Number(form.trial_period_days ?? 0);
        const subscription: StoredSubscription = {
          id: newId("sub"),
          object: "subscription",
          customer: form.customer,
          status: trialDays > 0 ? "trialing" : "incomplete",
          trial_end: trialDays > 0 ? now + trialDays * 86_400 : null,
          created: now,
          metadata: metadataOf(form),
          items: {
            object: "list",
            data: [{ id: newId("si"), object: "subscription_item", price: { id: price, object: "price" } }],
          },
          pending_setup_intent: setupIntentId,
        };
        subscriptions.set(subscription.id, subscription);
        if (failure === "no_setup_intent") {
          send(response, 200, { ...subscription, pending_setup_intent: null });
          return;
        }
        send(response, 200, withSetupIntent(subscription, expands("pending_setup_intent")));
      } else if (subscriptionPath?.[1] && (request.method === "GET" || request.method === "POST")) {
        const subscription = subscriptions.get(subscriptionPath[1]);
        if (!subscription) {
          send(
            response,
            404,
            stripeError("invalid_request_error", `No such subscription: '${subscriptionPath[1]}'`, "resource_missing"),
          );
          return;
        }
        if (request.method === "POST") {
          const itemId = form["items[0][id]"];
          const price = form["items[0][price]"];
          const item = subscription.items.data.find((candidate) => candidate.id === itemId);
          if (!item || !price) {
            send(response, 400, stripeError("invalid_request_error", "Unknown subscription item."));
            return;
          }
          item.price = { id: price, object: "price" };
          Object.assign(subscription.metadata, metadataOf(form));
        }
        send(response, 200, withSetupIntent(subscription, expands("pending_setup_intent")));
      } else if (customerPath?.[1] && request.method === "DELETE") {
        // As Stripe does: deleting a customer cancels its subscriptions at once.
        for (const subscription of subscriptions.values()) {
          if (subscription.customer === customerPath[1]) subscription.status = "canceled";
        }
        send(response, 200, { id: customerPath[1], object: "customer", deleted: true });
      } else {
        send(
          response,
          404,
          stripeError("invalid_request_error", `Unrecognized request URL (${request.method}: ${url.pathname}).`),
        );
      }
    });
  });

  return new Promise((resolve) => {
    server.listen(port, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        subscriptions,
        setupIntents,
        fail: (next) => {
          failure = next;
        },
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

function metadataOf(form: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(form).flatMap(([key, value]) => {
      const match = /^metadata\[(.+)\]$/.exec(key);
      return match?.[1] ? [[match[1], value]] : [];
    }),
  );
}
