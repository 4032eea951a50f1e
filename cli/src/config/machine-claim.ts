// machine-claim.ts: how a session names the machine it runs on, and proves it.
//
//   tether daemon ─► TETHER_HOME/machine-secret (256 random bits, 0600) ─► its SHA-256 in machine:register
//   a runner on this machine (spawned by the daemon, or `tether claude` at its desk with the same
//   TETHER_HOME) ─► reads machine-id + machine-secret ─► session:register { machineId, machineProof }
//   hub ─► keeps machineId only when the proof hashes to the machine's registered vouch
//
// A desk session then belongs to its machine: the phone can review it and resume it through that
// machine's daemon, as it can a session the daemon spawned. Only this user (0600) can read the secret.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isUuid } from '@tether/shared';
import { tetherPaths } from './paths.ts';

const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** The machine's secret, made (0600) on the daemon's first start. */
export function loadMachineSecret(env: NodeJS.ProcessEnv = process.env): string {
  const file = tetherPaths(env).machineSecret;
  const found = readSecret(file);
  if (found) return found;
  const secret = randomBytes(32).toString('base64url');
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** What the daemon registers: the secret's SHA-256, never the secret. */
export function machineVouch(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function readSecret(file: string): string | null {
  if (!existsSync(file)) return null;
  try {
    const text = readFileSync(file, 'utf8').trim();
    return SECRET.test(text) ? text : null;
  } catch {
    return null;
  }
}

/** The machine a runner here belongs to, with its proof: the daemon's (TETHER_MACHINE_ID, set for
 *  the runners it spawns), else this TETHER_HOME's machine when a daemon ever ran here. Null: none. */
export function machineClaim(env: NodeJS.ProcessEnv = process.env): { machineId: string; machineProof?: string } | null {
  const paths = tetherPaths(env);
  let machineId = env.TETHER_MACHINE_ID || null;
  if (!machineId && existsSync(paths.machineId)) {
    try {
      const id = readFileSync(paths.machineId, 'utf8').trim();
      machineId = isUuid(id) ? id : null;
    } catch {
      machineId = null;
    }
  }
  if (!machineId) return null;
  const proof = readSecret(paths.machineSecret);
  return proof ? { machineId, machineProof: proof } : { machineId };
}
