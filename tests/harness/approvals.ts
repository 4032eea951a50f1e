// approvals.ts (harness): one approvals world: fake Messages API with a script, a hub, a sandboxed
// real claude under a real `tether claude` with a desk, and a phone watching the session and
// recording every approval:requested / approval:resolved it hears. stop() releases all of it.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PendingRequest, Resolution } from '@tether/shared';
import type { FakeAnthropic, ScriptTurn, MessagesRequest } from '../fixtures/fake-anthropic/index.ts';
import type { ClaudeSandbox } from './claude.ts';
import type { HubHandle } from './hub.ts';
import { watchSession, type RunnerHandle, type SessionWatch } from './runner.ts';
import { DESK_READY, MANUAL_MODE, startStage } from './world.ts';

/** A /web client of one session that records every approval request and resolution it hears. */
export type Phone = SessionWatch;

export type ApprovalWorld = {
  fake: FakeAnthropic;
  hub: HubHandle;
  sandbox: ClaudeSandbox;
  runner: RunnerHandle;
  phone: Phone;
  /** Another /web client of the same session (a second tab or device). */
  addPhone(options?: { token?: string }): Promise<Phone>;
  /** The first request of `toolName` the phone heard that no earlier call returned (waits for it). */
  nextRequest(toolName: string): Promise<PendingRequest>;
  /** Every tool_result claude sent to the model, flattened to text. */
  toolResults(): Array<{ toolUseId: string; text: string; isError: boolean }>;
  /** The hook endpoint (port and secret) of the runner, from its private settings dir. */
  hookEndpoint(): { port: number; secret: string; path: string };
  stop(): Promise<void>;
};

export async function phoneFor(hub: { url: string; token: string }, sessionId: string): Promise<Phone> {
  return watchSession({ hub, sessionId });
}

function toolResultsOf(requests: MessagesRequest[]) {
  const seen = new Map<string, { toolUseId: string; text: string; isError: boolean }>();
  for (const request of requests) {
    for (const message of request.messages) {
      if (message.role !== 'user' || typeof message.content === 'string') continue;
      for (const block of message.content) {
        if (block.type !== 'tool_result') continue;
        const b = block as { tool_use_id: string; content?: string | Array<{ text?: string }>; is_error?: boolean };
        const text = typeof b.content === 'string' ? b.content : (b.content ?? []).map((p) => p.text ?? '').join('\n');
        seen.set(b.tool_use_id, { toolUseId: b.tool_use_id, text, isError: b.is_error === true });
      }
    }
  }
  return [...seen.values()];
}

/** The footer in plan mode replaces "? for shortcuts". */
export const DESK_READY_PLAN = /❯\s*\n─+\n\s+⏸ plan mode on/;

/** claude's own permission dialog or question picker at the desk (same words in 2.1.197 and 2.1.330). */
export const DESK_DIALOG = /Do you want to proceed\?|Enter to select|Exit plan mode\?/;


/** The desk answers claude's dialog with `key`, pressed again while the dialog stays: claude 2.1.330
 *  drops a key that lands right after its dialog opened (the desk's own keys are never lost that way:
 *  a person is slower). */
const REPRESS_MS = 700;
const DIALOG_ANSWER_TIMEOUT_MS = 15_000;

export async function answerDeskDialog(runner: RunnerHandle, key: string): Promise<void> {
  await runner.waitForScreen(DESK_DIALOG);
  const deadline = Date.now() + DIALOG_ANSWER_TIMEOUT_MS;
  let pressedAt = 0;
  while (DESK_DIALOG.test(runner.screenText())) {
    if (Date.now() > deadline) throw new Error(`claude's dialog never took ${JSON.stringify(key)}; screen:\n${runner.screenText()}`);
    if (Date.now() - pressedAt >= REPRESS_MS) {
      runner.write(key);
      pressedAt = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startApprovalWorld(options: {
  script: ScriptTurn[];
  args?: string[];
  runnerGoneGraceMs?: number;
  /** What the desk shows once claude is ready (default DESK_READY). */
  ready?: RegExp;
  /** The user's own claude settings (`<CLAUDE_CONFIG_DIR>/settings.json`), e.g. permission rules. */
  userSettings?: Record<string, unknown>;
}): Promise<ApprovalWorld> {
  const stops: Array<() => unknown> = [];
  const stop = async () => {
    for (const fn of stops.reverse()) await fn();
  };
  try {
    const { fake, hub, sandbox, startRunner } = await startStage((fn) => stops.push(fn), {
      script: options.script,
      hub: options.runnerGoneGraceMs !== undefined ? { runnerGoneGraceMs: options.runnerGoneGraceMs } : {},
    });
    if (options.userSettings) writeFileSync(join(sandbox.configDir, 'settings.json'), JSON.stringify(options.userSettings));
    const runner = startRunner({ args: options.args ?? MANUAL_MODE });
    const phone = await phoneFor(hub, runner.sessionId);
    stops.push(() => phone.stop());
    await runner.waitForScreen(options.ready ?? DESK_READY);
    const taken = new Set<string>();
    return {
      fake,
      hub,
      sandbox,
      runner,
      phone,
      addPhone: async ({ token } = {}) => {
        const other = await phoneFor({ url: hub.url, token: token ?? hub.token }, runner.sessionId);
        stops.push(() => other.stop());
        return other;
      },
      nextRequest: async (toolName) => {
        const request = await phone.waitFor(() => phone.requested.find((r) => r.toolName === toolName && !taken.has(r.id)), { what: `a ${toolName} request on the hub` });
        taken.add(request.id);
        return request;
      },
      toolResults: () => toolResultsOf(fake.mainRequests()),
      hookEndpoint: () => {
        const log = readFileSync(join(runner.home, 'logs', 'runner.log'), 'utf8');
        const settings = /"--settings","([^"]+)"/.exec(log)?.[1];
        if (!settings) throw new Error(`no --settings in the runner log:\n${log}`);
        const path = join(dirname(settings), 'endpoint.json');
        return { ...(JSON.parse(readFileSync(path, 'utf8')) as { port: number; secret: string }), path };
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

