// pty-link.ts: a PTY session's hub link: how it carries out what the hub may ask (session/commands.ts:
// prompts, abort, end, model, mode, effort, answers; and the terminal's input, size, desk and
// viewers), what is re-sent when the link comes back, and the terminal stream that starts with it.
import { existsSync } from 'node:fs';
import type { PermissionMode } from '@tether/shared';
import type { HubCommandHandlers } from '../../hub-link/commands.ts';
import type { Desk } from './desk.ts';
import type { ModelControl } from './model-control.ts';
import type { PtyContext } from './pty-context.ts';
import type { AttachedLaunch } from '../session/attached-launch.ts';
import { createTerminalStream } from './terminal-stream.ts';
import { echoMark } from '../../pty/echo-trace.ts';
import { sessionCommands } from '../session/commands.ts';

type Parts = { desk: Desk; setMode: (mode: PermissionMode) => void; models: ModelControl };

/** At most this long an End waits for the screen of a finished turn to settle. */
const END_SETTLE_MS = 5_000;

/** An End asked for between turns waits while the agent still draws itself busy (Gemini runs its
 *  AfterAgent hook after the turn's Stop, its row up at least 3 s): the ender's first key (Esc)
 *  would cancel it and the chat would show the finished turn "Interrupted". Mid-turn it ends at once. */
async function afterTurnTail(ctx: PtyContext): Promise<void> {
  const deadline = Date.now() + END_SETTLE_MS;
  while (ctx.core.state.status === 'idle' && Date.now() < deadline) {
    if ((await ctx.screen.state()).promptState.kind !== 'busy') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `claude stop` for an attached session, then our view goes (claude attach ends with it; the
 *  detach keys are for a view that stays). A stop that fails still detaches, and the session ends
 *  failed with why: the phone must not believe it stopped. */
async function stopInPool(ctx: PtyContext, attached: AttachedLaunch): Promise<void> {
  const { core } = ctx;
  try {
    await attached.stopInPool();
    core.log(`stopped background session ${attached.backgroundId} in its pool, as asked`);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    core.log(`stopping background session ${attached.backgroundId} failed: ${why}`);
    core.stopFailed(`${why}; tether detached, and it runs on in the agent's pool`);
  }
  ctx.ender?.end();
}

/** How a PTY session carries out the hub's commands (session/commands.ts): keys typed at an idle
 *  prompt, and the terminal's own. */
function ptyCommands(ctx: PtyContext, parts: Parts): HubCommandHandlers {
  const { agent, core, queue } = ctx;
  const { state, controller, log, patch } = core;
  return sessionCommands(core, {
    deliver: (delivery) => {
      log(`prompt ${delivery.promptId.slice(0, 8)} from the hub (status ${state.status})`);
      const failed = (reason: string) => core.link()?.push('prompt:status', { sessionId: state.id, promptId: delivery.promptId, status: 'dropped', reason });
      // With files: written under the session's temp dir first, then typed as `@path … text`; an
      // agent whose composer attaches a pasted image path gets each image's path pasted alone first.
      if (agent.ptyImages === 'paste-path') {
        core.attachments.forLocalImages(delivery, { ready: ({ text, images }) => queue.enqueue({ promptId: delivery.promptId, text, attach: images }), failed });
        return;
      }
      core.attachments.forPty(delivery, { ready: (text) => queue.enqueue({ promptId: delivery.promptId, text }), failed });
    },
    abort: () => queue.abort(),
    closePrompts: (why) => {
      // Nothing more is typed once a person asked to end: undelivered prompts go back now.
      queue.close(why);
      queue.stop();
    },
    end: () => void afterTurnTail(ctx).then(() => ctx.ender?.end()),
    ...(ctx.options.attached ? { stopInPool: () => void stopInPool(ctx, ctx.options.attached!) } : {}),
    // The model changes when the transcript shows the agent's /model output (session/core): a
    // "Switch model?" answered "No" keeps the old one. Before the first prompt there may be no
    // transcript to show it (claude 2.1.197 writes none yet); then no cache is warm, claude asks
    // nothing, and the command done is the model set.
    setModel: (next) => {
      // An agent that switches through its own picker (Agent.models) says where it ended itself.
      if (parts.models.set({ model: next, effort: null })) return;
      if (!agent.modelCommand) return log(`model change to ${next} refused: ${agent.name} has no model command here`);
      queue.enqueueCommand({
        text: agent.modelCommand(next),
        onDone: () => {
          const { path } = core.transcript();
          if (path && existsSync(path)) return;
          state.model = next;
          patch({ model: next });
          core.finishedCommand({ command: '/model', args: next, outcome: 'applied' });
        },
      });
    },
    setMode: (mode) => parts.setMode(mode),
    // The agent's own `/effort`, typed at an idle prompt like `/model`; the footer then shows it.
    setEffort: (level) => {
      if (parts.models.set({ model: null, effort: level })) return;
      if (agent.effortCommand) queue.enqueueCommand({ text: agent.effortCommand(level) });
    },
    more: {
      'terminal:input': ({ data, desk }) => {
        // A `tether attach` desk types through the hub too.
        if (desk) return parts.desk.typed(data);
        echoMark('run_in');
        controller.set('remote');
        ctx.pty?.write(data);
        echoMark('run_written');
      },
      'terminal:resize': ({ cols, rows }) => {
        if (parts.desk.attached()) return; // the desk owns the size while attached
        parts.desk.resize({ cols, rows });
      },
      'terminal:desk': ({ attached, cols, rows }) => parts.desk.remoteChanged({ attached, cols, rows }),
      'terminal:viewers': ({ count }) => ctx.stream?.viewers(count),
      'terminal:snapshot-request': () => ctx.stream?.snapshotRequested(),
    },
  });
}

/** Opens the hub link (once the identity is known) and the terminal stream that rides on it. */
export function startPtyLink(ctx: PtyContext, parts: Parts): void {
  const { core } = ctx;
  core.startLink({
    onConnected: () => {
      parts.desk.linkReconnected();
      ctx.stream?.connected();
      // Approvals, MCP forms and dialogs still waiting are asked again.
      core.requests.reconnected();
    },
    commands: ptyCommands(ctx, parts),
  });
  const link = core.link();
  if (link && !ctx.stream) {
    ctx.stream = createTerminalStream({ sessionId: core.state.id, run: ctx.run, link, screen: ctx.screen, ptyOffset: () => ctx.pty?.offset() ?? 0, desk: parts.desk.attached });
  }
}
