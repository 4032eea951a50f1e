// arbitraries.ts: fast-check generators of payloads a hub edge must refuse. Each starts from the
// event's (or body's) valid base and breaks it: a field replaced by anything fast-check can make, a
// field dropped, an own key added (__proto__, constructor or random), the whole payload replaced, or
// one of malformed.ts's curated cases (deep nesting, prototype pollution, huge strings). Only what
// the schema rejects after a trip over the wire is kept, so every payload must be refused.
// Invariant: a fixed seed gives the same payloads (fc.assert's seed), so a failure reproduces.
import fc from 'fast-check';
import type { z } from 'zod';
import { throughWire, withOwnKey } from './malformed.ts';

/** Values a field may wrongly hold: any JSON-ish value, long or odd strings, numbers at the edges. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({ maxDepth: 4, withNullPrototype: true, withBigInt: false }),
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.double(),
  fc.integer(),
  fc.constantFrom(null, true, false, '', [], {}, -1, 2 ** 53 + 2, '../../etc/passwd', "'; DROP TABLE sessions; --"),
);

const keyName = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString'), fc.string({ maxLength: 20 }));

function copy(base: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(base)) withOwnKey(out, key, base[key]);
  return out;
}

/** A nested path of the base (objects only) whose value gets replaced or dropped. */
function paths(value: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  if (!value || typeof value !== 'object' || value instanceof Uint8Array) return out;
  for (const key of Object.keys(value)) {
    out.push([...prefix, key]);
    if (prefix.length < 3) paths((value as Record<string, unknown>)[key], [...prefix, key], out);
  }
  return out;
}

function setAt(base: unknown, path: string[], value: unknown, drop: boolean): unknown {
  if (path.length === 0) return value;
  const node = Array.isArray(base) ? [...base] : copy(base as Record<string, unknown>);
  const [head, ...rest] = path;
  if (rest.length === 0 && drop) delete (node as Record<string, unknown>)[head!];
  else withOwnKey(node as Record<string, unknown>, head!, setAt((base as Record<string, unknown>)[head!], rest, value, drop));
  return node;
}

export function malformedArbitrary(options: { base: unknown; schema: z.ZodType; curated?: unknown[] }): fc.Arbitrary<unknown> {
  const fieldPaths = paths(options.base);
  const mutations: Array<fc.Arbitrary<unknown>> = [
    wrongValue,
    fc.tuple(keyName, wrongValue).map(([key, value]) => (options.base && typeof options.base === 'object' ? withOwnKey(copy(options.base as Record<string, unknown>), key, value) : value)),
  ];
  if (fieldPaths.length > 0) {
    mutations.push(fc.tuple(fc.constantFrom(...fieldPaths), wrongValue).map(([path, value]) => setAt(options.base, path, value, false)));
    mutations.push(fc.constantFrom(...fieldPaths).map((path) => setAt(options.base, path, undefined, true)));
  }
  if (options.curated && options.curated.length > 0) mutations.push(fc.constantFrom(...options.curated));
  return fc.oneof(...mutations).filter((payload) => !options.schema.safeParse(throughWire(payload)).success);
}

/** Raw strings for a path segment, a query value or a body (well-formed UTF-16: encodeURIComponent). */
export const rawText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 100 }),
  fc.json({ maxDepth: 3 }),
  fc.constantFrom(' ', 'null', 'undefined', '__proto__', '..', '%00', '\u00ff'.repeat(10)),
);

const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
/** Authorization header values (printable ASCII, as fetch allows): bearer-ish, token-ish, JWT-ish. */
export const rawAuthorization: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: printable, maxLength: 120 }),
  fc.string({ unit: printable, maxLength: 60 }).map((s) => `Bearer ${s}`),
  fc.string({ unit: printable, minLength: 1, maxLength: 60 }).map((s) => `Bearer tth_${s.replace(/\s/g, '')}`),
  fc.tuple(fc.base64String(), fc.base64String(), fc.base64String()).map(([a, b, c]) => `Bearer ${a}.${b}.${c}`.replace(/[=+/]/g, '_')),
);
