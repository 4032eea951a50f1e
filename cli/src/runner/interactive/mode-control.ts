// mode-control.ts: the phone asked for another permission mode. The agent switches the way its desk
// does (claude: Shift+Tab until the footer shows it; Gemini: its gate's policy; Agent.modes). Bypass only when the user started
// the session allowing it. One switch at a time; the prompt queue waits for it.
import type { PermissionMode } from '@tether/shared';
import type { PtyContext } from './pty-context.ts';

export function createModeControl(ctx: PtyContext) {
  const { options, agent, core, screen, queue } = ctx;
  let switching = false;
  const bypassAllowed = core.plan.bypass || options.userArgs.includes('--allow-dangerously-skip-permissions');
  return {
    /** A switch is under way: the footer's mode is held back meanwhile. */
    switching: () => switching,
    async set(mode: PermissionMode) {
      if (mode === 'bypassPermissions' && !bypassAllowed) {
        core.log('mode switch to bypassPermissions refused: the session was not started allowing it');
        return;
      }
      if (switching || !ctx.pty) return;
      const modes = agent.modes;
      if (!modes) return core.log(`mode switch to ${mode} refused: ${agent.name}'s modes are not switched from the phone`);
      switching = true;
      try {
        const result = await modes.switchTo({ target: mode, screen, write: (data) => ctx.pty?.write(data) });
        core.log(result.ok ? `permission mode switched to ${mode}` : `permission mode not switched to ${mode}: ${result.reason}`);
        // The footer read during the switch was held back; report where it ended (a gate's policy is
        // no footer's: the agent says where it is).
        const now = result.ok && result.mode ? result.mode : await modes.current(screen);
        if (now) core.followMode(now);
      } finally {
        switching = false;
        queue.poke();
      }
    },
  };
}
