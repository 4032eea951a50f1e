// model-control.ts: the phone asked a PTY session for another model or effort, and the agent
// switches the way its desk does (Agent.models: a picker read between keys) rather than by a typed
// line (Agent.modelCommand). The switch waits its turn in the prompt queue for an idle, empty prompt,
// so no prompt is typed into the picker; the dialog bridge leaves the picker alone meanwhile. What the
// agent says it switched to is patched; the phone hears the command finished either way.
import type { PtyContext } from './pty-context.ts';

export type ModelControl = {
  /** A switch is under way: the agent's picker on screen is not a dialog to ask the phone about. */
  switching(): boolean;
  /** False when the agent has no such switch (the caller falls back to its command line). */
  set(options: { model: string | null; effort: string | null }): boolean;
};

export function createModelControl(ctx: PtyContext): ModelControl {
  const { agent, core, screen, queue } = ctx;
  let switching = false;
  return {
    switching: () => switching,
    set({ model, effort }) {
      const models = agent.models;
      if (!models) return false;
      queue.enqueueAction({
        run: async () => {
          if (!ctx.pty) return;
          switching = true;
          try {
            const result = await models.switchTo({ model, effort, screen, write: (data) => ctx.pty?.write(data) });
            if (result.ok) {
              core.log(`model switched to ${result.model}${result.effort ? ` (${result.effort})` : ''}`);
              if (result.model !== core.state.model) {
                core.state.model = result.model;
                core.patch({ model: result.model });
              }
              if (result.effort) core.followEffort(result.effort);
            } else core.log(`model not switched to ${model ?? 'the current model'}${effort ? ` (${effort})` : ''}: ${result.reason}`);
            // The phone waits for a model change to end either way (a refusal keeps the old one).
            if (model) core.finishedCommand({ command: '/model', args: model, outcome: result.ok ? 'applied' : 'kept' });
          } catch (error) {
            core.log(`model switch failed: ${String(error)}`);
            if (model) core.finishedCommand({ command: '/model', args: model, outcome: 'kept' });
          } finally {
            switching = false;
          }
        },
      });
      return true;
    },
  };
}
