// machine-claim.ts: which machine a registering session may name. A runner spawned by a daemon, or
// started at that machine's desk with the same TETHER_HOME, proves the claim with the machine's
// secret (cli/src/config/machine-claim.ts); the daemon registered its SHA-256 (the vouch).
//
//   claim + proof hashing to the machine's vouch ─► kept: review, resume, the shell work through it
//   a claim nobody vouched for (no such machine, no proof, a wrong one) ─► dropped: a desk session
//   a machine registered by a daemon older than vouching ─► kept, as before (no secret to check)
//
// Invariant: a session never names a machine whose daemon did not vouch for it (but for that legacy
// case), so the phone's Resume and Review never reach a daemon the runner cannot prove it shares.
import { sameDigest, sha256Hex } from '../auth/digest.ts';
import type { Namespace } from '@tether/shared';
import type { SessionRegistrationInput, Store } from '../store/store.ts';

export async function vouchedRegistration(options: { store: Store; namespace: Namespace; registration: SessionRegistrationInput }): Promise<SessionRegistrationInput> {
  const { machineProof, ...registration } = options.registration;
  if (!registration.machineId) return registration;
  const machine = await options.store.getMachineVouch({ namespace: options.namespace, machineId: registration.machineId });
  if (machine && (machine.vouch === null || (machineProof !== undefined && sameDigest(machine.vouch, sha256Hex(machineProof))))) return registration;
  return { ...registration, machineId: null };
}
