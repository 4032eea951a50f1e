// review-stage.ts (harness): the stage the review browser tests share (tests/browser/reviews.test.ts,
// review-end.test.ts). A machine's daemon, a live claude session on it (its runner answers the
// Changes query with one file's diff) and, for each reviewer the daemon is asked to start, a played
// runner: it registers, answers each prompt with `findings` (a chat message and, in a PTY, the same
// text drawn on its terminal), and ends its session when asked to stop, as a real runner does.
// Sockets, not real agents: each step is the test's to time (the real agents are the e2e's).
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { Socket } from 'socket.io-client';
import { axeViolations, seriousOnes } from './axe.ts';
import { saveScreenshot, useColorScheme, type ViewportName } from './browser.ts';
import type { BrowserWorld } from './browser-world.ts';
import { emitAck } from './hub.ts';
import { agentFor } from '../../cli/src/agents/index.ts';
import { ONE_FILE_CHANGES } from '../fixtures/changes-page.ts';

/** The parent's Changes: one file (tests/fixtures/changes-page.ts). */
export const DIFF_PAGE = ONE_FILE_CHANGES;

/** A screenshot in each theme, and axe's serious findings in each. */
export async function bothThemes(page: Page, name: string, viewport: ViewportName): Promise<string[]> {
  const serious: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await useColorScheme(page, scheme);
    await saveScreenshot(page, { name: `${name}-${scheme}`, viewport });
    serious.push(...seriousOnes(await axeViolations(page)).map((line) => `${scheme}: ${line}`));
  }
  await useColorScheme(page, 'light');
  return serious;
}

/** `prompts`: the text of each prompt the hub delivered to it, in order. */
export type Reviewer = { sessionId: string; runner: Socket; spawn: Record<string, unknown>; prompts: string[] };

export type ReviewStage = {
  token: string;
  machineId: string;
  /** The machine's stand-in daemon (closed: the machine goes offline). */
  daemon: Socket;
  parentId: string;
  parent: Socket;
  /** The prompts the parent's runner was handed. */
  toParent: string[];
  /** The sessions asked to stop, in order (parent and reviewers). */
  stops: string[];
  /** The reviewers the daemon started, in order. */
  reviewers: Reviewer[];
};

/** Each prompt's answer: a turn that writes `findings` to the chat and, in a PTY, draws it. */
function answerPrompts(o: { runner: Socket; sessionId: string; pty: boolean; findings: string; prompts: string[] }): void {
  let offset = 0;
  let drawn = '';
  let drawing = Promise.resolve();
  // One write after another: each carries the offset the last one ended at.
  const draw = (text: string) =>
    (drawing = drawing.then(async () => {
      const bytes = new TextEncoder().encode(text);
      await emitAck(o.runner, 'terminal:output', { sessionId: o.sessionId, offset, data: bytes });
      offset += bytes.byteLength;
      drawn += text;
    }));
  // A viewer the hub cannot serve from its log asks for the screen: everything drawn so far.
  o.runner.on('terminal:snapshot-request', () => void emitAck(o.runner, 'terminal:snapshot', { sessionId: o.sessionId, offset, cols: 80, rows: 24, data: drawn }));
  if (o.pty) void draw('\x1b[2J\x1b[H\x1b[1m>_ OpenAI Codex\x1b[0m (read-only)\r\n\r\n› ');
  o.runner.on('prompt:deliver', (p: { sessionId: string; promptId: string; text: string }) => {
    o.prompts.push(p.text);
    void (async () => {
      await emitAck(o.runner, 'prompt:status', { sessionId: p.sessionId, promptId: p.promptId, status: 'delivered', reason: null });
      await emitAck(o.runner, 'session:update', { sessionId: p.sessionId, patch: { status: 'thinking' } });
      if (o.pty) await draw(`Review these changes…\r\n\r\n\x1b[36m• Reading src/app.ts\x1b[0m\r\n\r\n${o.findings.split('\n').join('\r\n')}\r\n\r\n› `);
      await emitAck(o.runner, 'message:append', { sessionId: p.sessionId, messages: [{ id: randomUUID(), role: 'assistant', content: [{ type: 'text', text: o.findings }], createdAt: Date.now() }] });
      await emitAck(o.runner, 'session:update', { sessionId: p.sessionId, patch: { status: 'idle' } });
    })();
  });
}

/** The runner ends its session when the hub asks it to stop; the stop is recorded. */
function endsOnStop(runner: Socket, sessionId: string, stops: string[]): void {
  runner.on('session:stop', () => {
    stops.push(sessionId);
    void emitAck(runner, 'session:end', { sessionId, status: 'ended', exitCode: 0, reason: null });
  });
}

export async function reviewStage(world: BrowserWorld, o: { namespace: string; title: string; findings: string }): Promise<ReviewStage> {
  const token = await world.hub.createToken(o.namespace);
  const machineId = randomUUID();
  const daemon = await world.connect({ token, client: 'daemon' });
  const capabilities = { claude: agentFor('claude').capabilities, codex: agentFor('codex').capabilities };
  const registered = await emitAck(daemon, 'machine:register', { id: machineId, name: 'dev-box', os: 'linux', user: 'dev', home: '/home/dev', agents: ['claude', 'codex'], capabilities });
  if (!registered.ok) throw new Error(`machine:register: ${registered.error}`);
  const parent = await world.connect({ token });
  const parentId = await world.registerSession(parent, { machineId, cwd: '/home/dev/src/app', launchKind: 'pty', title: o.title, status: 'idle' });
  parent.on('workspace:query', (_q: unknown, reply: (a: unknown) => void) => reply({ ok: true, ...DIFF_PAGE }));
  const stage: ReviewStage = { token, machineId, daemon, parentId, parent, toParent: [], stops: [], reviewers: [] };
  parent.on('prompt:deliver', (p: { text: string }) => stage.toParent.push(p.text));
  endsOnStop(parent, parentId, stage.stops);

  daemon.on('daemon:spawn', (spawn: { sessionId: string; cwd: string; launchKind: string; agent: 'codex' }, reply: (a: unknown) => void) => {
    reply({ ok: true, pid: 4000 + stage.reviewers.length, cwd: spawn.cwd, logFile: '/tmp/reviewer.log' });
    void (async () => {
      const runner = await world.connect({ token });
      await world.registerSession(runner, { id: spawn.sessionId, machineId, cwd: spawn.cwd, launchKind: spawn.launchKind, agent: spawn.agent, title: 'Review' });
      const prompts: string[] = [];
      stage.reviewers.push({ sessionId: spawn.sessionId, runner, spawn, prompts });
      answerPrompts({ runner, sessionId: spawn.sessionId, pty: spawn.launchKind === 'pty', findings: o.findings, prompts });
      endsOnStop(runner, spawn.sessionId, stage.stops);
      await emitAck(runner, 'session:update', { sessionId: spawn.sessionId, patch: { status: 'idle' } });
    })();
  });
  return stage;
}
