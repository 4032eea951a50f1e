// attach.ts: `tether attach <session>`: this terminal drives a session started elsewhere (the phone,
// `tether spawn`), through the hub's terminal room. Raw mode; this terminal takes the PTY size.
// Detach with Ctrl-] (as telnet): the session keeps running. A headless session is handed over
// first: it is stopped and the same agent session (claude's session, Codex's thread) resumed in a
// PTY through the daemon (same tether session and chat).
// Without a session id it lists the attachable (live) sessions and reads a number from stdin; with
// --json or without a TTY it prints the list and exits 2 (nothing to pick with).
import { isFinalStatus, type Session } from '@tether/shared';
import { startHeapProbe } from '../memory/heap-probe.ts';
import { attachLocalTerminal, DEFAULT_SIZE } from '../pty/local-terminal.ts';
import { CommandError, checkedSessionId, parseFlags, readLine, type Command } from './command.ts';
import { connectAsPhone, requireCredentials } from './hub-access.ts';
import { fetchSessions, sessionTable, type ListedSession } from './sessions.ts';

/** Ctrl-] (GS, 0x1d): telnet's escape; claude binds nothing to it. */
export const DETACH_KEY = '\x1d';
/** Full reset before a snapshot is drawn (RIS), so the snapshot paints on a clean screen. */
const RESET_SCREEN = '\x1bc';

const command: Command = {
  name: 'attach',
  startEnv: 'server',
  summary: 'attach this terminal to a session (Ctrl-] detaches; a headless session is resumed in a PTY)',
  usage: 'tether attach [<session>] [--json]',
  async run(args) {
    const { flags, positionals } = parseFlags({ args, booleans: ['json'] });
    if (positionals.length > 1) throw new CommandError(`usage: ${command.usage}`, 2);
    const sessionId = checkedSessionId(positionals[0] ?? (await pickSession({ json: flags.json === true })));
    const creds = requireCredentials();
    const { resumeSession, stopSession } = await import('../web-client/session-control.ts');
    const { attachTerminal } = await import('../web-client/terminal-attach.ts');
    // Reconnecting: a hub restart does not end the attachment (terminal-attach.ts rejoins).
    const client = await connectAsPhone({ creds, device: 'tether attach', reconnection: true });
    const note = (line: string) => process.stderr.write(`tether: ${line}\r\n`);
    try {
      const watched = await client.request('session:watch', { sessionId, afterSeq: Number.MAX_SAFE_INTEGER });
      if (!watched.ok) throw new CommandError(`cannot attach: ${watched.error}`);
      let session: Session = watched.session;
      if (isFinalStatus(session.status)) throw new CommandError(`session ${sessionId} has ${session.status}; resume it with tether resume ${sessionId} (or Resume on the phone)`);
      if (session.launchKind === 'headless') {
        // Stopping it first would end a session the hub then refuses to resume (not_resumable).
        if (!session.agentSessionId) throw new CommandError(`session ${sessionId} is headless and its ${session.agent} has no conversation yet, so there is nothing to resume in a terminal: send it a prompt first (it keeps running)`);
        note(`the session is headless: stopping it and resuming the same ${session.agent} session in a PTY…`);
        // Its reviews run on: the same session comes back in a moment (a hand-off, not an end).
        const stopped = await stopSession(client, { sessionId, reviews: 'keep' });
        if (!stopped.ok) throw new CommandError(`could not stop the headless session: ${stopped.error}`);
        const resumed = await resumeSession(client, sessionId, 'pty');
        if (!resumed.ok) throw new CommandError(`could not resume it in a PTY${resumed.reason ? ` (${resumed.reason})` : ''}: ${resumed.error}`);
        session = resumed.session;
      }

      let attachment: Awaited<ReturnType<typeof attachTerminal>> | null = null;
      const local = attachLocalTerminal({
        onInput: (data) => {
          const at = data.indexOf(DETACH_KEY);
          if (at === -1) return attachment?.input(data);
          if (at > 0) attachment?.input(data.slice(0, at));
          attachment?.close();
        },
        onResize: (size) => attachment?.resize(size),
        onSignal: () => attachment?.close(),
      });
      // Bench only (TETHER_BENCH_HEAP): the soak's heap samples of a viewer; unset, no timer exists.
      const stopHeapProbe = startHeapProbe({ label: 'viewer' });
      try {
        attachment = await attachTerminal({
          client,
          sessionId,
          onOutput: (bytes) => process.stdout.write(bytes),
          onReset: (screen) => process.stdout.write(RESET_SCREEN + screen),
          onNotice: note,
        });
        attachment.resize(local.interactive ? local.size() : DEFAULT_SIZE);
        const why = await attachment.ended;
        local.restore();
        if (why === 'detached') {
          process.stdout.write(`\r\n`);
          note(`detached from ${sessionId}; it keeps running (tether attach ${sessionId} to come back)`);
          return 0;
        }
        process.stdout.write(`\r\n`);
        note(why);
        return why.startsWith('session ended') ? 0 : 1;
      } finally {
        stopHeapProbe();
        local.restore();
      }
    } finally {
      client.close();
    }
  },
};
export default command;

/** Live sessions (PTY or headless), newest first, and the user's pick by number. */
async function pickSession(options: { json: boolean }): Promise<string> {
  const live = (await fetchSessions()).filter((s) => !isFinalStatus(s.status)).sort((a, b) => b.updatedAt - a.updatedAt);
  const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY) && !options.json;
  if (!interactive) {
    if (options.json) process.stdout.write(`${JSON.stringify({ sessions: live })}\n`);
    else if (live.length) process.stdout.write(`${sessionTable(live)}\n`);
    throw new CommandError(live.length ? 'no session id given: run tether attach <session> with an id from the list' : 'no live session to attach to', 2);
  }
  if (live.length === 0) throw new CommandError('no live session to attach to (tether sessions lists them all)', 1);
  process.stdout.write(`${sessionTable(live, { numbered: true })}\n`);
  const answer = await readLine(`attach to which session? [1-${live.length}] `);
  const n = Number(answer.trim());
  const chosen: ListedSession | undefined = Number.isInteger(n) ? live[n - 1] : undefined;
  if (!chosen) throw new CommandError(`"${answer.trim()}" is not a number from 1 to ${live.length}`, 2);
  return chosen.id;
}

