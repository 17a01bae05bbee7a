import type { IncomingMessage, Server, ServerResponse } from "node:http";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/*
 * Closing keep-alive connections without resetting a request. Node's server.close() destroys at
 * once every connection that is between two requests; a client that wrote its next request on
 * one of them at that moment gets ECONNRESET or "socket hang up" for a request the server never
 * saw, and cannot tell whether it ran. A client that keeps a connection busy is never idle for
 * long, so at shutdown the listener closes first and each open connection is left alone until it
 * has been idle for a quiet period: a busy client sends its next request before then, gets its
 * answer (a 503 while closing) with `Connection: close`, and the connection ends after that answer,
 * at a moment both sides agree on. Only connections idle for the whole quiet period are closed.
 */

/** How long a connection must have been idle before a shutdown closes it. */
export const DRAIN_QUIET_MS = 1_000;

type ConnectionState = { active: number; idleSince: number };

export function trackConnections(server: Server) {
  const connections = new Map<net.Socket, ConnectionState>();
  server.on("connection", (socket: net.Socket) => {
    connections.set(socket, { active: 0, idleSince: Date.now() });
    socket.once("close", () => connections.delete(socket));
  });
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const state = connections.get(request.socket);
    if (!state) return;
    state.active += 1;
    response.once("close", () => {
      state.active -= 1;
      state.idleSince = Date.now();
    });
  });

  return {
    /**
     * Stops accepting connections, then closes each open one once it has been idle for `quietMs`,
     * and resolves when none is left or after `maxMs`. Connections still busy then are the
     * server.close() that follows to wait for (and the caller's grace period to cut off).
     */
    async drain({ quietMs = DRAIN_QUIET_MS, maxMs }: { quietMs?: number; maxMs: number }): Promise<void> {
      if (!server.listening) return;
      // The listener only: server.close() would also destroy the idle connections right away.
      net.Server.prototype.close.call(server);
      const deadline = Date.now() + maxMs;
      while (connections.size > 0 && Date.now() < deadline) {
        const now = Date.now();
        for (const [socket, state] of connections) {
          if (state.active === 0 && now - state.idleSince >= quietMs) socket.destroy();
        }
        await sleep(25);
      }
    },
  };
}
