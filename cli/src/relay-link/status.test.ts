// status.test.ts: what `tether doctor` says about a relay tunnel, from the hub's status file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RelayStatus } from './link.ts';
import { relayCheck } from './status.ts';

const home = mkdtempSync(join(tmpdir(), 'tether-relay-status-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function write(status: RelayStatus): void {
  mkdirSync(join(home, 'relay'), { recursive: true });
  writeFileSync(join(home, 'relay', 'status.json'), JSON.stringify(status));
}

describe('relay doctor check', () => {
  const base = { name: 'alpha.relay.test', origin: 'https://alpha.relay.test', pid: process.pid, updatedAt: 1_000 };
  it('says nothing without a relay, up with its age, down with the reason and retry', () => {
    expect(relayCheck(join(home, 'none'))).toBeNull();
    write({ ...base, state: { kind: 'up', since: 1_000 } });
    expect(relayCheck(home, 61_000)).toEqual({ ok: true, detail: 'tunnel up for 60 s: https://alpha.relay.test reaches this hub' });
    write({ ...base, state: { kind: 'down', reason: 'the relay is unreachable (network down?)', retryInMs: 8_000, attempt: 4 } });
    expect(relayCheck(home, 3_000)).toMatchObject({ ok: false, detail: 'tunnel down: the relay is unreachable (network down?); retrying in 8 s (2 s ago)' });
    write({ ...base, pid: 2 ** 22 + 1, state: { kind: 'up', since: 1 } });
    expect(relayCheck(home)).toMatchObject({ ok: false, detail: expect.stringContaining('is not running') });
  });
});
