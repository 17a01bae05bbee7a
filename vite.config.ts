import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const server = "http://localhost:3000";

// The React app builds into dist/client, which the Fastify server serves (src/server/platform/web). The
// public pages' script (src/site/entry-client.tsx) is a second entry: the server renders those
// pages and links it from the manifest (decision 0022).
export default defineConfig({
  root: "src/client",
  plugins: [react(), tailwindcss()],
  // The manifest maps each route's module to its chunks; scripts/bundle-size.ts and the server read it.
  build: {
    outDir: "../../dist/client",
    emptyOutDir: true,
    manifest: true,
    rollupOptions: {
      input: {
        index: fileURLToPath(new URL("src/client/index.html", import.meta.url)),
        site: fileURLToPath(new URL("src/site/entry-client.tsx", import.meta.url)),
      },
    },
  },
  server: {
    port: 5173,
    // The server renders the public pages; in `npm run dev` Vite hands them (and the API) to it.
    proxy: {
      "/api": server,
      "^/$": server,
      "^/blog(/.*)?$": server,
      "/blog-images": server,
      "/sitemap.xml": server,
      "/robots.txt": server,
      "/site-dev-preamble.js": server,
    },
  },
});
