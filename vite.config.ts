import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The React app builds into dist/client, which the Fastify server serves (src/server/web).
export default defineConfig({
  root: "src/client",
  plugins: [react(), tailwindcss()],
  // The manifest maps each route's module to its chunks; scripts/bundle-size.ts reads it.
  build: { outDir: "../../dist/client", emptyOutDir: true, manifest: true },
  server: {
    port: 5173,
    proxy: { "/api": "http://localhost:3000" },
  },
});
