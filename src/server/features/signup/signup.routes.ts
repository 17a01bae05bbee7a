import type { FastifyInstance } from "fastify";
import { registerSchema } from "../../../shared/auth";
import { currentUserSchema } from "../../../shared/users";
import type { Config } from "../../platform/config";
import type { ZodTypeProvider } from "../../platform/http";
import { requestOrigin } from "../../tenancy/actor";
import { deviceOf, setSessionCookie } from "../auth/access-control";
import { type CardBilling, findSetupForRegistration, SETUP_COOKIE } from "../billing/billing.service";
import { clearSetupCookie } from "../billing/setup-cookie";
import { register } from "./signup.service";

/*
 * Signing up: the last step of onboarding creates the firm and its first user. It joins two
 * features, accounts (auth) and the card setup (billing), so it stands apart from both and
 * neither needs the other.
 */
export function signupRoutes(
  app: FastifyInstance,
  { config, cardBilling }: { config: Config; cardBilling: CardBilling | undefined },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    "/api/auth/register",
    {
      config: { access: "public" },
      schema: {
        summary:
          "Create a firm on a 14-day trial with its first user (super_admin), signed in; with card payments on, " +
          "linked to this browser's card setup (POST /api/create-subscription-setup) for the same email and plan",
        body: registerSchema,
        response: { 201: currentUserSchema },
      },
    },
    async (request, reply) => {
      const device = deviceOf(request);
      const { token, user } = await register({
        db: request.db,
        config,
        input: request.body,
        origin: requestOrigin(request),
        device,
        ...(cardBilling
          ? {
              cardSetup: () =>
                findSetupForRegistration({
                  db: request.db,
                  billing: cardBilling,
                  token: request.cookies[SETUP_COOKIE],
                  email: request.body.email,
                  plan: request.body.subscriptionPlan,
                  log: request.log,
                }),
            }
          : {}),
      });
      if (cardBilling) clearSetupCookie(reply);
      setSessionCookie(reply, { token, device }, config);
      return reply.status(201).send(user);
    },
  );
}
