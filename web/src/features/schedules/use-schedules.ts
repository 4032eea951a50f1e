// use-schedules.ts: the namespace's schedules, kept in step with the hub: schedule:list on open and
// on every (re)connect, then each schedule:updated / schedule:removed (every tab of the namespace
// hears them: made or changed on another phone, run by the hub, gone with a revoked device).
import { useEffect, useState } from 'react';
import type { Schedule } from '@tether/shared';
import { requestHub } from '../../lib/socket.ts';
import { followHub } from '../../lib/hub-follow.ts';

export function upsertSchedule(list: readonly Schedule[], schedule: Schedule): Schedule[] {
  const at = list.findIndex((s) => s.id === schedule.id);
  if (at < 0) return [...list, schedule].sort((a, b) => a.createdAt - b.createdAt);
  // The newer copy wins (a list answer may cross a fresher update).
  if (list[at]!.updatedAt > schedule.updatedAt) return [...list];
  return list.map((s, i) => (i === at ? schedule : s));
}

export function useSchedules(): { schedules: Schedule[] | null; error: string | null } {
  const [schedules, setSchedules] = useState<Schedule[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    const load = () =>
      void requestHub('schedule:list', {})
        .then((ack) => {
          if (!alive) return;
          setError(null);
          setSchedules(ack.schedules);
        })
        .catch((e: unknown) => alive && setError(e instanceof Error ? e.message : String(e)));
    const stop = followHub(
      {
        'schedule:updated': (schedule) => setSchedules((current) => upsertSchedule(current ?? [], schedule)),
        'schedule:removed': ({ id }) => setSchedules((current) => (current ?? []).filter((s) => s.id !== id)),
      },
      load,
    );
    return () => {
      alive = false;
      stop();
    };
  }, []);
  return { schedules, error };
}
