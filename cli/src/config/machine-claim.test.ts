import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadMachineSecret, machineClaim, machineVouch } from './machine-claim.ts';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'tether-claim-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

it('makes the machine secret once, owner-only, and vouches with its SHA-256, never the secret', () => {
  const env = { TETHER_HOME: home };
  const secret = loadMachineSecret(env);
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(loadMachineSecret(env)).toBe(secret);
  expect((statSync(join(home, 'machine-secret')).mode & 0o777).toString(8)).toBe('600');
  expect(machineVouch(secret)).toBe(createHash('sha256').update(secret).digest('hex'));
  expect(machineVouch(secret)).not.toContain(secret);
});

it('claims the daemon\'s machine (its env) or this home\'s, with the proof when the secret is there; none without an id', () => {
  const id = '3f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
  expect(machineClaim({ TETHER_HOME: home })).toBeNull();
  writeFileSync(join(home, 'machine-id'), `${id}\n`);
  expect(machineClaim({ TETHER_HOME: home })).toEqual({ machineId: id });
  const secret = loadMachineSecret({ TETHER_HOME: home });
  expect(machineClaim({ TETHER_HOME: home })).toEqual({ machineId: id, machineProof: secret });
  const spawned = '4f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
  expect(machineClaim({ TETHER_HOME: home, TETHER_MACHINE_ID: spawned })).toEqual({ machineId: spawned, machineProof: secret });
  // A damaged file proves nothing and names nothing.
  writeFileSync(join(home, 'machine-secret'), 'not a secret');
  writeFileSync(join(home, 'machine-id'), 'not an id');
  expect(machineClaim({ TETHER_HOME: home })).toBeNull();
  expect(readFileSync(join(home, 'machine-id'), 'utf8')).toBe('not an id');
});
