// gemini.test.ts: a Gemini CLI session from the browser, against the real thing: a hub serving
// web/dist, a real `tether gemini` runner (desk in a PTY) driving the pinned Gemini CLI, whose model is
// the scripted fake Gemini API, and Debian's Chromium at 390×844 (touch) and 1280×800: the journey
// every agent walks (agent-journey.ts: the list, the chat read from Gemini's session file, the shell
// command its BeforeTool hook asks about approved in the sheet, Gemini's own screen, axe).
import { describe } from 'vitest';
import { hasToolResponse, shellCommand, startFakeGemini, text, userSays, when } from '../fixtures/fake-gemini/index.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { createGeminiSandbox, FAKE_GEMINI_MODEL, GEMINI_READY } from '../harness/gemini.ts';
import { agentJourney, journeyTurns } from './agent-journey.ts';

describe('a Gemini session from the browser', () => {
  agentJourney({
    world: useBrowserWorld(),
    defer: useCleanups(),
    agent: {
      agent: 'gemini',
      display: 'Gemini',
      listed: 'Gemini · PTY',
      // A Gemini TUI is a 100 MB Node bundle: seconds to start on a loaded box.
      uiTimeoutMs: 45_000,
      journeyTimeoutMs: 150_000,
      async start(script) {
        const fake = await startFakeGemini({
          script: journeyTurns(script, { when, userSays, text, command: (command, description) => shellCommand(command, { description }), ran: hasToolResponse }),
        });
        return { fake, sandbox: createGeminiSandbox({ fakeApiUrl: fake.url }), args: ['-m', FAKE_GEMINI_MODEL], ready: GEMINI_READY };
      },
    },
  });
});
