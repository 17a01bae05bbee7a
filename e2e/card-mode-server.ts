import { spawn } from "node:child_process";
import { startStripeStandIn, stripeTestKeys } from "../tests/stripe-stand-in";

/*
 * The second e2e server (playwright.config.ts, project "card-mode"): the built app with Stripe
 * configured, its API calls sent to the local stand-in of Stripe's API (the network is closed
 * here), which listens on the given port so the browser tests can steer it.
 * Usage: tsx e2e/card-mode-server.ts <stand-in port>; the app's own settings come from the env.
 */
const standInPort = Number(process.argv[2]);
if (!Number.isInteger(standInPort)) throw new Error("usage: tsx e2e/card-mode-server.ts <stand-in port>");

const standIn = await startStripeStandIn(standInPort);
const app = spawn(process.execPath, ["dist/server/main.js"], {
  stdio: "inherit",
  env: { ...process.env, ...stripeTestKeys, STRIPE_API_URL: standIn.url },
});

const stop = (signal: NodeJS.Signals) => {
  app.kill(signal);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
app.on("exit", async (code) => {
  await standIn.close();
  process.exit(code ?? 0);
});
