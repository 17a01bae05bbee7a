import { pipeline, type Readable } from "node:stream";
import zlib from "node:zlib";
import type { FastifyReply, FastifyRequest } from "fastify";

/*
 * Answers travel brotli- or gzip-compressed when the browser asks (decision 0022): rendered HTML,
 * the sitemap, a CSV download, JSON over 1 KB. The built client's files are compressed at build
 * time and sent as they are. This is the whole of it, run from the app's one onSend hook: an
 * answer under 1 KB (most of the API) leaves after one length check. The plugin it replaces
 * (@fastify/compress) hung three hooks on every route and cost some 25 µs on every request,
 * a tenth of a small read's whole time (decision 0043).
 */

/** Under this many bytes an answer goes as it is: compressing it would save less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

type Encoding = "br" | "gzip";

const compressibleType = /^(?:text\/|application\/(?:json|javascript|xml|manifest\+json)|image\/svg\+xml)/;
// Quality 4 (of 11) is brotli's usual choice on the fly: near gzip's speed, smaller output.
const brotliOptions = {
  params: {
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
  },
};
const compressText: Record<
  Encoding,
  (text: string | Buffer, done: (error: Error | null, result: Buffer) => void) => void
> = {
  br: (text, done) => zlib.brotliCompress(text, brotliOptions, done),
  gzip: (text, done) => zlib.gzip(text, done),
};
const compressStream: Record<Encoding, () => zlib.BrotliCompress | zlib.Gzip> = {
  br: () => zlib.createBrotliCompress(brotliOptions),
  gzip: () => zlib.createGzip(),
};

/**
 * The encoding to answer in, from an Accept-Encoding header (RFC 9110, 12.5.3): the acceptable
 * one with the highest weight, brotli on a tie; `*` stands for any not named, `x-gzip` for gzip;
 * a weight of 0 refuses. None: send the answer as it is.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim());
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (name && Number.isFinite(weight)) weights.set(name === "x-gzip" ? "gzip" : name, weight);
  }
  const any = weights.get("*") ?? 0;
  const br = weights.get("br") ?? any;
  const gzip = weights.get("gzip") ?? any;
  if (br <= 0 && gzip <= 0) return undefined;
  return br >= gzip ? "br" : "gzip";
}

const isStream = (payload: unknown): payload is Readable =>
  payload !== null && typeof payload === "object" && typeof (payload as Readable).pipe === "function";

/**
 * Hands `done` the answer as it should travel: compressed, with its Content-Encoding, Vary and
 * length, when it is text of a compressible type, 1 KB or more (or a stream, whose length is not
 * known), not already encoded, and the browser accepts brotli or gzip; as it is otherwise.
 */
export function compressAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: Error | null, payload?: unknown) => void,
): void {
  const text = typeof payload === "string" || Buffer.isBuffer(payload);
  const encoding = text || isStream(payload) ? encodingFor(request, reply, payload) : undefined;
  if (encoding === undefined) {
    done(null, payload);
  } else if (text) {
    // zlib's asynchronous calls compress on its thread pool: a large answer does not hold up others.
    compressText[encoding](payload, (error, compressed) => {
      if (!error) reply.header("content-length", compressed.length);
      done(error, compressed);
    });
  } else {
    reply.removeHeader("content-length");
    done(
      null,
      pipeline(payload as Readable, compressStream[encoding](), () => {}),
    );
  }
}

/**
 * Whether text is 1 KB or more. A string's UTF-8 length is at least its length in UTF-16 code
 * units, so only a shorter string is measured: measuring walks the whole string, some 5 µs for
 * a 23 KB answer (the template library), and first flattens a string written in pieces.
 */
const atLeastThreshold = (payload: string | Buffer) =>
  payload.length >= COMPRESSION_THRESHOLD_BYTES ||
  (typeof payload === "string" && Buffer.byteLength(payload) >= COMPRESSION_THRESHOLD_BYTES);

/**
 * The encoding an answer of text or a stream travels in, its headers set; none for one under 1 KB,
 * of a type not worth compressing, already encoded, partial, or to a browser that accepts neither.
 */
function encodingFor(request: FastifyRequest, reply: FastifyReply, payload: string | Buffer | Readable) {
  if (!isStream(payload) && !atLeastThreshold(payload)) return undefined;
  const type = reply.getHeader("content-type");
  const compressible = compressibleType.test(typeof type === "string" ? type : "application/json");
  if (!compressible || reply.hasHeader("content-encoding") || reply.statusCode === 206) return undefined;
  // The answer depends on Accept-Encoding from here on, whether or not this browser gets it compressed.
  const vary = reply.getHeader("vary");
  if (vary === undefined) reply.header("vary", "accept-encoding");
  else if (!/accept-encoding|\*/i.test(String(vary))) reply.header("vary", `${String(vary)}, accept-encoding`);
  const encoding = chooseEncoding(request.headers["accept-encoding"]);
  if (encoding !== undefined) reply.header("content-encoding", encoding);
  return encoding;
}
