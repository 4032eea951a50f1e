import { describe, expect, it } from 'vitest';
import { AddedDirsSchema, AgentCapabilitiesSchema } from '@tether/shared';
import { storedJson } from './rows.ts';
import { CAPABILITIES } from './store.contract.ts';

describe('storedJson', () => {
  it('reads the same text once, and hands out a frozen value', () => {
    let checks = 0;
    const counting = { safeParse: (value: unknown) => (checks++, AddedDirsSchema.safeParse(value)) };
    const text = JSON.stringify(['/a', '/b']);
    const first = storedJson(text, counting);
    const again = storedJson(text, counting);
    expect(first).toEqual(['/a', '/b']);
    expect(again).toBe(first);
    expect(checks).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => (first as string[]).push('/c')).toThrow(TypeError);
    // Another text is checked on its own.
    expect(storedJson(JSON.stringify(['/c']), counting)).toEqual(['/c']);
    expect(checks).toBe(2);
  });

  it('freezes nested records too', () => {
    const read = storedJson(JSON.stringify(CAPABILITIES), AgentCapabilitiesSchema);
    if (read === null) return expect.unreachable('capabilities the schema accepts');
    expect(Object.isFrozen(read.models)).toBe(true);
    expect(Object.isFrozen(read.models.offered)).toBe(true);
  });

  it('reads what the schema refuses, what is not JSON and what is absent as null, every time', () => {
    expect(storedJson(JSON.stringify({ not: 'a list' }), AddedDirsSchema)).toBeNull();
    expect(storedJson(JSON.stringify({ not: 'a list' }), AddedDirsSchema)).toBeNull();
    expect(storedJson('{broken', AddedDirsSchema)).toBeNull();
    expect(storedJson(null, AddedDirsSchema)).toBeNull();
  });
});
