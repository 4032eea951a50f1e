// opencode-check.mjs: `bun run opencode:check`. Tries the newest opencode on the npm registry before the
// pin moves (cli/src/agents/opencode/supported-versions.json stays as it is): installs it into
// .tools/opencode-<version>/ as the pins are (ensureOpencode) and runs every suite that starts the real
// opencode against it. Prints the version tried and one closing line; exits non-zero when a test failed.
import { REAL_OPENCODE_SUITES, ensureOpencode, supportedOpencode } from './bootstrap.mjs';
import { checkNewestAgent } from './newest-agent-check.mjs';

process.exit(
  checkNewestAgent({ agent: 'opencode', pkg: 'opencode-ai', supported: supportedOpencode, ensure: ensureOpencode, suites: REAL_OPENCODE_SUITES, binEnv: 'TETHER_OPENCODE_BIN' }),
);
