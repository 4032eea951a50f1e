// malformed.ts: a seeded, deterministic generator of malformed inputs for the hub's edges. It mutates a
// valid payload (delete a field, give it a wrong type, nest it deep, add __proto__/constructor keys,
// replace it by a non-object) and keeps only what the event's own schema rejects after a trip over
// the wire, so every kept payload is one the hub must refuse.
// Invariant: the same seed gives the same payloads, so a failure reproduces.
import type { z } from 'zod';

/** mulberry32: tiny, fast, good enough to pick mutations reproducibly. */
export function createRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
export type Random = ReturnType<typeof createRandom>;

/** A string over the 1 MiB payload cap: the transport must refuse it, never buffer it into a handler. */
export const HUGE_STRING_CHARS = 1024 * 1024 + 4096;

function deepNest(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** A JSON object with an *own* key named like a prototype slot (a literal `{ __proto__: … }` would not). */
export function withOwnKey(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  return target;
}

function pollution(): Record<string, unknown> {
  const bad = withOwnKey({}, '__proto__', { polluted: 'yes', isAdmin: true });
  withOwnKey(bad, 'constructor', { prototype: { polluted: 'yes' } });
  return bad;
}

function wrongValues(r: Random): unknown[] {
  return [
    null,
    0,
    -1,
    1.5,
    Number.MAX_SAFE_INTEGER + 2,
    -Number.MAX_SAFE_INTEGER * 4,
    '',
    'x',
    ' ',
    '\u0000',
    '💥'.repeat(r.int(50) + 1),
    'a'.repeat(70_000),
    true,
    false,
    [],
    [1, 'two', null],
    {},
    pollution(),
    deepNest(500 + r.int(1500), r.pick(['array', 'object'] as const)),
    '../../../../etc/passwd',
    "'; DROP TABLE sessions; --",
    '00000000-0000-0000-0000-00000000000g',
    { $gt: '' },
  ];
}

const NON_OBJECTS: unknown[] = [null, 0, 42, -0.5, '', 'hello', true, false, [], [{}], ['a', 1], [[[[]]]]];

/** Over the wire, JSON drops undefined and turns NaN into null; binary stays binary. */
export function throughWire(value: unknown): unknown {
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) return value;
  if (value === undefined) return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : throughWire(v)));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const v = throughWire((value as Record<string, unknown>)[key]);
      if (v !== undefined) withOwnKey(out, key, v);
    }
    return out;
  }
  return value;
}

function clone(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (Array.isArray(value)) return value.map(clone);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) withOwnKey(out, key, clone((value as Record<string, unknown>)[key]));
    return out;
  }
  return value;
}

/** Every path to a value inside an object/array payload. */
function paths(value: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
    for (const key of Object.keys(value)) {
      const p = [...prefix, key];
      out.push(p);
      if (p.length < 6) paths((value as Record<string, unknown>)[key], p, out);
    }
  }
  return out;
}

function mutate(r: Random, payload: unknown): unknown {
  if (!payload || typeof payload !== 'object') return r.pick(wrongValues(r));
  const all = paths(payload);
  const kind = r.int(6);
  if (kind === 0 || all.length === 0) return r.pick(NON_OBJECTS);
  // Only plain objects: JSON can never give an array own non-index keys.
  if (kind === 1 && !Array.isArray(payload)) {
    return withOwnKey(payload as Record<string, unknown>, r.pick(['__proto__', 'constructor', 'prototype']), pollution());
  }
  const path = r.pick(all);
  let parent = payload as Record<string, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const last = path[path.length - 1]!;
  if (kind === 1 && !Array.isArray(parent)) return (withOwnKey(parent, 'constructor', pollution()), payload);
  if (kind === 1) return payload;
  if (kind === 2) {
    delete parent[last];
  } else {
    withOwnKey(parent, last, r.pick(wrongValues(r)));
  }
  return payload;
}

/** `count` payloads derived from `base` that `schema` rejects (after a trip over the wire). */
export function malformedPayloads(options: { random: Random; base: unknown; schema: z.ZodType; count: number }): unknown[] {
  const out: unknown[] = [];
  let attempts = 0;
  while (out.length < options.count) {
    if (++attempts > options.count * 200) throw new Error('generator cannot find enough malformed payloads');
    let candidate = clone(options.base);
    const rounds = 1 + options.random.int(3);
    for (let i = 0; i < rounds; i++) candidate = mutate(options.random, candidate);
    if (options.schema.safeParse(throughWire(candidate)).success) continue;
    out.push(candidate);
  }
  return out;
}

/** Strings that are not a credential the hub issued. */
export function malformedBearers(options: { random: Random; count: number }): string[] {
  const r = options.random;
  const shapes = [
    () => '',
    () => 'Bearer',
    () => 'Bearer ',
    () => `Basic ${Buffer.from('a:b').toString('base64')}`,
    () => `Bearer tth_${'A'.repeat(r.int(60))}`,
    () => `Bearer tth_${Buffer.from(String(r.next())).toString('base64url')}${'x'.repeat(30)}`,
    () => `Bearer eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify({ sub: 'x', ns: 'default' })).toString('base64url')}.`,
    () => `Bearer ${'a'.repeat(r.int(8000))}`,
    () => `Bearer ${'.'.repeat(r.int(5))}`,
    () => `bearer  ${r.next()}`,
    () => `Bearer ${'\u00ff'.repeat(10)}`,
    () => `Bearer null`,
    () => `Bearer undefined`,
    () => `Bearer __proto__`,
  ];
  return Array.from({ length: options.count }, () => r.pick(shapes)());
}

/** Path segments that are not a session id. */
export function malformedIds(options: { random: Random; count: number }): string[] {
  const r = options.random;
  const shapes = [
    () => 'x',
    () => '__proto__',
    () => 'constructor',
    () => '%00',
    () => '%2e%2e%2f%2e%2e',
    () => encodeURIComponent("'; DROP TABLE sessions; --"),
    () => '1'.repeat(r.int(5000) + 1),
    () => '00000000-0000-0000-0000-00000000000g',
    () => '00000000-0000-0000-0000-0000000000000',
    () => encodeURIComponent('💥'.repeat(r.int(20) + 1)),
    () => String(r.int(1_000_000)),
    () => '%E0%A4%A',
    () => encodeURIComponent(JSON.stringify({ $ne: null })),
  ];
  return Array.from({ length: options.count }, () => r.pick(shapes)());
}

/** Query objects that MessagePageQuerySchema must reject. */
export function malformedQueries(options: { random: Random; schema: z.ZodType; count: number }): Array<Record<string, string>> {
  const r = options.random;
  const values = ['-1', 'x', '1.5', '', '0x10', '1e400', '9'.repeat(30), 'NaN', 'Infinity', 'null', '[]', '%', '0', '501', '100000'];
  // No empty key: URL parsing drops it, so the hub would rightly see a different (maybe valid) query.
  const keys = ['after', 'before', 'limit', 'limit', 'after', '__proto__', 'constructor', 'foo', 'seq'];
  const out: Array<Record<string, string>> = [];
  while (out.length < options.count) {
    const q: Record<string, string> = {};
    for (let i = 0, n = 1 + r.int(3); i < n; i++) withOwnKey(q, r.pick(keys), r.pick(values));
    if (options.schema.safeParse(q).success) continue;
    out.push(q);
  }
  return out;
}

/** Login bodies that are not `{ token: string(1..200) }`, as raw request bodies. */
export function malformedLoginBodies(options: { random: Random; schema: z.ZodType; count: number }): string[] {
  const r = options.random;
  const raw = ['', '{', 'null', '[]', '"tth_x"', '{"token":', 'token=tth_x', '\u0000', '{"token": tth_x}'];
  const out: string[] = [];
  const payloads = malformedPayloads({ random: r, base: { token: 'tth_validlookingvalidlookingvalid' }, schema: options.schema, count: options.count });
  for (let i = 0; i < options.count; i++) {
    out.push(i % 10 === 0 ? r.pick(raw) : JSON.stringify(throughWire(payloads[i])));
  }
  return out;
}
