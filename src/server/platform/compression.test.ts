import { Readable } from "node:stream";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../../tests/test-app";
import { COMPRESSION_THRESHOLD_BYTES, chooseEncoding } from "./compression";

describe("choosing the encoding from Accept-Encoding", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["identity", undefined],
    ["deflate", undefined],
    ["gzip", "gzip"],
    ["x-gzip", "gzip"],
    ["gzip, deflate, br, zstd", "br"],
    ["BR;Q=1, GZIP", "br"],
    ["gzip, br;q=0.5", "gzip"],
    ["br;q=0, gzip;q=0", undefined],
    ["br;q=0, gzip", "gzip"],
    ["*", "br"],
    ["*;q=0, gzip", "gzip"],
    ["gzip;q=not-a-number", undefined],
  ])("%j answers in %j", (header, encoding) => {
    expect(chooseEncoding(header)).toBe(encoding);
  });
});

describe("compressed answers", () => {
  const large = { items: Array.from({ length: 100 }, (_, index) => ({ index, name: `Client number ${index}` })) };
  const csv = `name,email\n${"Bright & Co,hello@bright.example\n".repeat(200)}`;
  const ctx = useTestApp({
    extend: (app) => {
      const route = { config: { access: "public" as const } };
      app.get("/api/test/large", route, async () => large);
      app.get("/api/test/csv", route, async (_request, reply) =>
        reply.type("text/csv; charset=utf-8").send(Readable.from([csv])),
      );
      // 600 characters, 1,200 bytes in UTF-8; and 600 characters, 600 bytes.
      app.get("/api/test/wide", route, async () => ({ text: "é".repeat(600) }));
      app.get("/api/test/narrow", route, async () => ({ text: "e".repeat(600) }));
      app.get("/api/test/png", route, async (_request, reply) => reply.type("image/png").send(Buffer.alloc(4096, 7)));
      app.get("/api/test/encoded", route, async (_request, reply) =>
        reply
          .type("text/plain")
          .header("content-encoding", "gzip")
          .send(gzipSync("x".repeat(4096))),
      );
    },
  });
  const get = (url: string, acceptEncoding?: string) =>
    ctx.app.inject({ method: "GET", url, headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} });

  it("sends JSON of 1 KB or more as brotli or gzip when asked, with its length, and plain otherwise", async () => {
    expect(JSON.stringify(large).length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    const br = await get("/api/test/large", "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("accept-encoding");
    expect(Number(br.headers["content-length"])).toBe(br.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString("utf8"))).toEqual(large);
    const gzip = await get("/api/test/large", "gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString("utf8"))).toEqual(large);
    const plain = await get("/api/test/large");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toBe("accept-encoding");
    expect(plain.json()).toEqual(large);
  });

  it("sends an answer under 1 KB as it is, whatever the browser accepts", async () => {
    const response = await get("/api/health", "br, gzip");
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(response.headers.vary).toBeUndefined();
    expect(response.json()).toEqual({ status: "ok", database: "ok" });
  });

  it("measures the threshold in bytes: fewer than 1,024 characters of 1 KB or more in UTF-8 are compressed", async () => {
    const wide = await get("/api/test/wide", "gzip");
    expect(wide.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(wide.rawPayload).toString("utf8"))).toEqual({ text: "é".repeat(600) });
    const narrow = await get("/api/test/narrow", "gzip");
    expect(narrow.headers["content-encoding"]).toBeUndefined();
    expect(narrow.json()).toEqual({ text: "e".repeat(600) });
  });

  it("compresses a streamed download, and leaves images and encoded answers alone", async () => {
    const download = await get("/api/test/csv", "gzip");
    expect(download.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(download.rawPayload).toString("utf8")).toBe(csv);
    const png = await get("/api/test/png", "br, gzip");
    expect(png.headers["content-encoding"]).toBeUndefined();
    expect(png.rawPayload.length).toBe(4096);
    const encoded = await get("/api/test/encoded", "br");
    expect(encoded.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(encoded.rawPayload).toString("utf8")).toBe("x".repeat(4096));
  });

  it("refuses a compressed request body with a 415 instead of reading it as JSON", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      payload: gzipSync(JSON.stringify({ username: "someone", password: "secret" })),
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      message: "Compressed request bodies are not accepted (Content-Encoding: gzip)",
      code: "UNSUPPORTED_MEDIA_TYPE",
    });
  });
});
