import pino from "pino";
import type { Config } from "./config";

/** Secrets that must never reach a log line, wherever they appear in a logged object. */
const redactedPaths = [
  "req.headers.cookie",
  "req.headers.authorization",
  'res.headers["set-cookie"]',
  "*.password",
  "*.currentPassword",
  "*.newPassword",
  "*.token",
  "*.signature",
];

/**
 * JSON logs for machines; readable lines when a developer watches a terminal. Tests pass a
 * destination to read what was logged.
 */
export function createLogger(config: Pick<Config, "env" | "logLevel">, destination?: pino.DestinationStream) {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    redact: { paths: redactedPaths, censor: "[redacted]" },
  };
  if (destination) return pino(options, destination);
  const pretty = config.env === "development" && process.stdout.isTTY;
  return pino({
    ...options,
    ...(pretty ? { transport: { target: "pino-pretty", options: { ignore: "pid,hostname" } } } : {}),
  });
}
