// The headless composition with a transport of the test's own over a real process (`cat`, which
// echoes its input): what any agent's transport gets from runner/headless/session.ts without a hub.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HeadlessContext, HeadlessTransport } from '../../agents/headless-transport.ts';
import { forEachLine } from '../../agents/lines.ts';
import { runHeadlessSession } from './session.ts';
import { tempDirs } from '../../testing/temp-dirs.ts';

const tempDir = tempDirs('headless');

/** Options for a hubless headless session of an agent whose transport has no hooks (Codex's kind),
 *  its binary pinned to `cat`. */
function options() {
  const home = tempDir();
  return { userArgs: [], cwd: home, env: { ...process.env, TETHER_CODEX_BIN: '/bin/cat' }, hub: null, tetherHome: home, desk: 'headless' as const, logFile: join(home, 'log'), launchKind: 'headless' as const, agent: 'codex' as const };
}

/** A transport that says `hello` and takes the echo as the agent's handshake; `handshake: false`
 *  closes the input at once instead, so the agent exits before it was ready. */
function echoTransport(o: { handshake: boolean; trace: string[] }) {
  return (context: HeadlessContext): HeadlessTransport => {
    let stdin: { write(data: string): unknown; end(): unknown } | null = null;
    return {
      hooks: false,
      files: 'paths',
      readyIs: 'it echoed',
      args: (plan) => (o.trace.push(`args:${plan.resumeId}`), []),
      start: async (pipes) => {
        stdin = pipes.stdin;
        if (!o.handshake) pipes.stdin.end();
        else pipes.stdin.write('hello\n');
        await forEachLine(pipes.stdout, (line) => {
          context.events.activity();
          o.trace.push(`line:${line}`);
          context.events.session({ id: '00000000-0000-4000-8000-000000000001', written: false });
          context.events.ready();
          // The agent's own end: its input closed once it has answered.
          stdin?.end();
        });
      },
      send: () => {},
      interrupt: () => {},
      closeInput: () => void stdin?.end(),
      setModel: () => {},
      failureLines: () => ['no handshake'],
    };
  };
}

describe('a headless session around any transport (runner/headless/session.ts)', () => {
  it('spawns the agent, hears it become ready through its transport and ends cleanly when it exits', async () => {
    const trace: string[] = [];
    const result = await runHeadlessSession(options(), echoTransport({ handshake: true, trace }));
    expect(trace).toEqual(['args:null', 'line:hello']);
    expect(result).toMatchObject({ exitCode: 0, failure: null });
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  }, 15_000);

  it('fails a session whose agent exits before its transport said ready, with the transport\'s lines as the reason', async () => {
    const result = await runHeadlessSession(options(), echoTransport({ handshake: false, trace: [] }));
    expect(result.exitCode).toBe(1);
    expect(result.failure).toBe('codex exited (code 0) before it echoed:\nno handshake');
  }, 15_000);
});
