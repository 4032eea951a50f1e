// gemini-check.mjs: `bun run gemini:check`. Tries the newest Gemini CLI on the npm registry before the pin
// moves (cli/src/agents/gemini/supported-versions.json stays as it is): installs it into
// .tools/gemini-<version>/ as the pins are (ensureGemini; kept there, ~100 MB, so a second check of the
// same release installs nothing) and runs every suite that starts the real Gemini CLI against it (none of
// claude's own: claude:check runs those), with claude at its pin (the tests' devDependency). Prints
// the version tried and one closing line; exits non-zero when a test failed.
import { REAL_GEMINI_SUITES, ensureGemini, supportedGemini } from './bootstrap.mjs';
import { checkNewestAgent } from './newest-agent-check.mjs';

process.exit(
  checkNewestAgent({ agent: 'gemini', pkg: '@google/gemini-cli', supported: supportedGemini, ensure: ensureGemini, suites: REAL_GEMINI_SUITES, binEnv: 'TETHER_GEMINI_BIN' }),
);
