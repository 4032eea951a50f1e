// use-unattended.ts: the namespace's guard on unattended work and its continue-at-reset default
// (shared unattended.ts), kept in step with the hub: unattended:get on open and every (re)connect,
// then each unattended:updated (a switch on another phone, `tether unattended`, a run counted by the
// hub). Read by the schedules screen (the panel that changes it) and a session's limit banner.
import { useEffect, useState } from 'react';
import type { UnattendedGuard, UnattendedSet } from '@tether/shared';
import { requestHub } from './socket.ts';
import { followHub } from './hub-follow.ts';

export function useUnattended(): { guard: UnattendedGuard | null; error: string | null; change: (change: UnattendedSet) => Promise<void> } {
  const [guard, setGuard] = useState<UnattendedGuard | null>(null);
  const [error, setError] = useState<string | null>(null);
  const failed = (e: unknown) => setError(e instanceof Error ? e.message : String(e));
  useEffect(() => {
    let alive = true;
    const load = () =>
      void requestHub('unattended:get', {})
        .then((ack) => {
          if (!alive) return;
          setError(null);
          setGuard(ack.guard);
        })
        .catch((e: unknown) => alive && failed(e));
    const stop = followHub({ 'unattended:updated': (next) => setGuard(next) }, load);
    return () => {
      alive = false;
      stop();
    };
  }, []);
  const change = (wanted: UnattendedSet) =>
    requestHub('unattended:set', wanted).then(
      (ack) => {
        setError(null);
        setGuard(ack.guard);
      },
      failed,
    );
  return { guard, error, change };
}
