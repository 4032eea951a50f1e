// codex-check.mjs: `bun run codex:check`. Tries the newest Codex on the npm registry before the pin
// moves (cli/src/agents/codex/supported-versions.json stays as it is): installs it into
// .tools/codex-<version>/ as the pins are (ensureCodex; kept there, ~400 MB, so a second check of the
// same release installs nothing) and runs every suite that starts the real Codex against it (none of
// claude's own: claude:check runs those), with claude at its pin (the tests' devDependency). Prints
// the version tried and one closing line; exits non-zero when a test failed.
import { REAL_CODEX_SUITES, ensureCodex, supportedCodex } from './bootstrap.mjs';
import { checkNewestAgent } from './newest-agent-check.mjs';

process.exit(
  checkNewestAgent({ agent: 'codex', pkg: '@openai/codex', supported: supportedCodex, ensure: ensureCodex, suites: REAL_CODEX_SUITES, binEnv: 'TETHER_CODEX_BIN' }),
);
