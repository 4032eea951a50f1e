// status.ts: `tether doctor`'s view of a hub's relay tunnel, from TETHER_HOME/relay/status.json,
// which the running hub rewrites on every change (link.ts). Null when this home has no relay hub.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../agents/alive.ts';
import { describeTunnel, RELAY_DIR, STATUS_FILE, type RelayStatus } from './link.ts';

export type RelayCheck = { ok: boolean; detail: string; fix?: string };

export function relayCheck(home: string, now = Date.now()): RelayCheck | null {
  const path = join(home, RELAY_DIR, STATUS_FILE);
  if (!existsSync(path)) return null;
  let status: RelayStatus;
  try {
    status = JSON.parse(readFileSync(path, 'utf8')) as RelayStatus;
  } catch {
    return { ok: false, detail: `${path} is unreadable`, fix: 'restart tether hub --relay' };
  }
  if (!isAlive(status.pid)) return { ok: false, detail: `the hub serving ${status.origin} is not running (pid ${status.pid} gone)`, fix: 'start it again: tether hub --relay <join code>' };
  const ago = Math.round((now - (status.state.kind === 'up' ? status.state.since : status.updatedAt)) / 1000);
  if (status.state.kind === 'up') return { ok: true, detail: `tunnel up for ${ago} s: ${status.origin} reaches this hub` };
  return { ok: false, detail: `${describeTunnel(status.state, status.origin).replace(/^relay: /, '')} (${ago} s ago)`, fix: 'see the hub\'s output; the tunnel retries by itself' };
}
