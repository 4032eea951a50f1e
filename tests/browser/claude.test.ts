// claude.test.ts: a claude session from the browser walks the journey every agent walks
// (agent-journey.ts): a real hub serving web/dist, a real `tether claude` runner (desk in a PTY) in
// its manual mode, its model the scripted fake Messages API, Debian's Chromium at 390×844 (touch) and
// 1280×800. (claude's own screens beyond the journey: real-claude.test.ts and the other suites here.)
import { describe } from 'vitest';
import { startFakeAnthropic, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { DESK_READY, MANUAL_MODE } from '../harness/world.ts';
import { agentJourney, journeyTurns } from './agent-journey.ts';

describe('a claude session from the browser', () => {
  agentJourney({
    world: useBrowserWorld(),
    defer: useCleanups(),
    agent: {
      agent: 'claude',
      display: 'Claude',
      listed: null,
      uiTimeoutMs: 30_000,
      journeyTimeoutMs: 90_000,
      async start(script) {
        const fake = await startFakeAnthropic({
          script: journeyTurns(script, { when, userSays, text, command: (command, description) => toolUse('Bash', { command, description }), ran: (output) => (request) => JSON.stringify(request.messages).includes(output) }),
        });
        return { fake, sandbox: createClaudeSandbox({ fakeApiUrl: fake.url }), args: MANUAL_MODE, ready: DESK_READY };
      },
    },
  });
});
