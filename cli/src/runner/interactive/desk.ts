// desk.ts: the person at the terminal of a PTY session: the local terminal (`tether claude` in a
// TTY) or a desk attached through the hub (`tether attach`; the local one, when there is one, wins).
// It owns the PTY's size while attached, marks who is in control when a key is pressed, follows
// Ctrl-Z (the agent draws that it is suspended; tether then stops itself, as the agent would in a
// shell), and hands a question back to the agent's own dialog when its hook hides it.
import { attachLocalTerminal, DEFAULT_SIZE, type LocalTerminal, type TerminalSize } from '../../pty/local-terminal.ts';
import { isDeskKeystroke } from '../session/controller.ts';
import type { PtyContext } from './pty-context.ts';

export type Desk = ReturnType<typeof createDesk>;

export function createDesk(ctx: PtyContext, o: { handToDesk: () => boolean }) {
  const { options, agent, core, screen } = ctx;
  const { log, controller, patch } = core;
  /** A `tether attach` desk attached through the hub. */
  let remote = false;
  /** When a person last pressed a key at the desk (the local terminal or a `tether attach` desk). */
  let lastKeyAt = 0;
  /** A size asked for before the PTY exists (a desk attached through the hub, or a viewer taking
   *  control, while the agent is still being launched): the PTY starts at it. */
  let sizeBeforeSpawn: TerminalSize | null = null;
  let local: LocalTerminal | null = null;
  /** Ctrl-Z at the desk: the agent draws it and waits for SIGCONT (inside our PTY its own TSTP is
   *  discarded: no job-control shell there). tether then suspends itself, as the agent would. */
  let suspendedEpisode = false;

  const attached = () => options.desk === 'attached' || remote;
  const resize = (next: TerminalSize) => {
    if (!ctx.pty) sizeBeforeSpawn = next;
    ctx.pty?.resize(next);
    screen.resize(next);
    ctx.stream?.sizeChanged(next);
  };
  /** Bytes from a desk (ours or `tether attach`): a keystroke, not a terminal's automatic reply,
   *  puts the desk in control and marks someone as there. */
  const typed = (data: string) => {
    if (isDeskKeystroke(data)) {
      controller.set('desk');
      lastKeyAt = Date.now();
      // Nothing to answer at the desk while such an agent's hook waits: the key brings up its dialog
      // (and is not passed on: it was meant for a dialog that was not there yet).
      if (agent.hookHidesDialog && o.handToDesk()) {
        log("a key at the desk while the phone was asked: the agent's own dialog asks there now");
        return;
      }
    }
    ctx.pty?.write(data);
  };

  return {
    attached,
    typed,
    resize,
    lastKeyAt: () => lastKeyAt,
    local: () => local,
    /** The size the PTY starts at. */
    initialSize: (): TerminalSize => (local?.interactive ? local.size() : (sizeBeforeSpawn ?? DEFAULT_SIZE)),
    /** `terminal:desk` from the hub: a `tether attach` desk came or went. */
    remoteChanged(o: { attached: boolean; cols?: number | undefined; rows?: number | undefined }) {
      if (options.desk === 'attached') return; // the local terminal owns this PTY
      remote = o.attached;
      patch({ deskAttached: o.attached });
      // The size report that follows says desk: attached, so the hub's size owner follows.
      if (o.attached && o.cols && o.rows) resize({ cols: o.cols, rows: o.rows });
      else ctx.stream?.sizeChanged({ cols: screen.cols(), rows: screen.rowsCount() });
      log(`desk ${o.attached ? `attached through the hub${o.cols && o.rows ? ` (${o.cols}x${o.rows})` : ''}` : 'detached'}`);
    },
    /** The hub link came back: a detach sent while it was down is lost, so the desk must not hold
     *  the size forever (`tether attach` re-announces itself with its next resize). */
    linkReconnected() {
      if (!remote) return;
      remote = false;
      patch({ deskAttached: false });
    },
    /** Attaches the local terminal (a TTY at `tether <agent>`), or stops the agent on signals. */
    start() {
      if (options.desk !== 'attached') {
        core.stopOnSignals(() => ctx.pty?.kill('SIGTERM'));
        return;
      }
      local = attachLocalTerminal({
        onInput: typed,
        onResize: (next) => resize(next),
        onSignal: (signal) => {
          log(`got ${signal}: stopping ${agent.name}`);
          core.stopAsked(signal);
          ctx.pty?.kill(signal === 'SIGHUP' ? 'SIGHUP' : 'SIGTERM');
        },
      });
      core.onCleanup(() => local?.restore());
    },
    /** The screen's text after each read: Ctrl-Z's notice stops tether too. */
    followSuspend(text: string) {
      if (!local?.interactive) return;
      if (!agent.screen.suspended?.(text)) {
        suspendedEpisode = false;
        return;
      }
      if (suspendedEpisode) return;
      suspendedEpisode = true;
      log(`${agent.name} suspended at the desk (Ctrl-Z): stopping tether too`);
      void local.suspend().then(() => {
        log(`continued (fg): resuming ${agent.name}`);
        // To the agent's process group (pty.kill), as the terminal's Ctrl-Z stopped all of it; a
        // gone agent is the exit path's to report.
        if (!ctx.pty) return;
        ctx.pty.kill('SIGCONT');
        if (local) resize(local.size()); // the window may have changed while we were stopped
      });
    },
  };
}
