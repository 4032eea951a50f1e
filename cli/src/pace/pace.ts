// pace.ts: how often a runner's backstop polls look (claude's transcript, its subagents, its status
// file) while nothing happens. Each of those polls catches what fs.watch and claude's hooks missed,
// and all of it comes while claude is working: then its screen changes too. So while the session is
// quiet (no PTY output, no key, no hook for QUIET_AFTER_MS) they stop looking (QUIET_POLL_MS), and
// the first sign of life (`stir()`) brings them back at their own interval at once. An idle session
// was ~15 wake-ups a second from these polls alone (issue 11: the runner burnt half of what claude
// itself does idle; a laptop on battery pays for every wake-up).

/** No output, key or hook for this long: the session is quiet. A turn redraws claude's spinner
 *  several times a second, so a working claude is never quiet. */
export const QUIET_AFTER_MS = 3_000;
/** What a backstop poll waits between looks while quiet: not at all. Everything these polls catch
 *  comes with a sign of life (claude draws on its screen while it writes; Esc is a key; a hook is a
 *  hook), and the PTY's output now wakes the runner by itself (pty/read-loop.ts), so a quiet session's
 *  polls sleep with no timer and the first stir brings them back (idle bench: each timed look was a
 *  wake-up, stat and read every 5 s for each of three polls). */
export const QUIET_POLL_MS = Number.POSITIVE_INFINITY;

/** Runs `tick` about every `everyMs` until the returned stop() is called. */
export type Poll = (o: { everyMs: number; tick: () => void }) => () => void;

/** A plain interval: what modules use when no pace is given (tests, one-off readers). */
export const steadyPoll: Poll = ({ everyMs, tick }) => {
  const timer = setInterval(tick, everyMs);
  return () => clearInterval(timer);
};

export type Pace = {
  /** Something happened (PTY output, a key written, a hook): polls go at their own interval again. */
  stir(): void;
  /** Nothing happened for QUIET_AFTER_MS. */
  quiet(): boolean;
  /** A poll that slows to QUIET_POLL_MS while quiet (Infinity: waits for a stir), and is back at `everyMs` right after a stir. */
  poll: Poll;
  /** Never quiet while `busy()` holds (a turn runs): its end may come with no sign of life. Codex
   *  writes its turn's end to the transcript after its Stop hook and may draw nothing after; under
   *  load that came more than QUIET_AFTER_MS after the hook, no poll read it, and the session stayed
   *  'thinking' (a rehearsal's Codex sub-agent test). */
  awakeWhile(busy: () => boolean): void;
};

export function createPace(options: { quietAfterMs?: number; quietPollMs?: number; now?: () => number } = {}): Pace {
  const quietAfterMs = options.quietAfterMs ?? QUIET_AFTER_MS;
  const quietPollMs = options.quietPollMs ?? QUIET_POLL_MS;
  const now = options.now ?? (() => performance.now());
  let lastStir = now();
  let busy: () => boolean = () => false;
  /** Polls sleeping a quiet-length wait: a stir re-arms them at their own interval. */
  const sleeping = new Set<() => void>();
  const quiet = () => now() - lastStir >= quietAfterMs && !busy();

  return {
    stir() {
      // Called for every PTY read: one clock read.
      const at = now();
      const wasQuiet = at - lastStir >= quietAfterMs;
      lastStir = at;
      if (!wasQuiet || sleeping.size === 0) return;
      const rearm = [...sleeping];
      sleeping.clear();
      for (const r of rearm) r();
    },
    quiet,
    awakeWhile(predicate) {
      busy = predicate;
    },
    poll({ everyMs, tick }) {
      let timer: ReturnType<typeof setTimeout> | null = null;
      let stopped = false;
      const arm = (ms: number) => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(fire, ms);
      };
      const rearm = () => {
        if (!stopped) arm(everyMs);
      };
      function fire() {
        timer = null;
        sleeping.delete(rearm);
        if (stopped) return;
        tick();
        if (stopped) return;
        if (quiet() && quietPollMs > everyMs) {
          sleeping.add(rearm);
          if (Number.isFinite(quietPollMs)) arm(quietPollMs);
        } else arm(everyMs);
      }
      arm(everyMs);
      return () => {
        stopped = true;
        sleeping.delete(rearm);
        if (timer) clearTimeout(timer);
        timer = null;
      };
    },
  };
}
