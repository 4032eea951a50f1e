import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive as alive } from '../alive.ts';
import { startServedOpencode } from './served.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A stand-in for `opencode serve --port N --hostname H`: answers /global/health behind basic auth
 *  (OPENCODE_SERVER_PASSWORD), says so on stdout, and writes its pid where the test reads it. */
function fakeOpencode(body: string): { bin: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tether-served-'));
  dirs.push(dir);
  const bin = join(dir, 'opencode');
  writeFileSync(bin, `#!${process.execPath}\n${body}\n`);
  chmodSync(bin, 0o755);
  return { bin, dir };
}

const SERVER = `
const [, , command, , port, , hostname] = process.argv;
if (command !== 'serve') process.exit(2);
require('node:fs').writeFileSync('pid', String(process.pid));
const expected = 'Basic ' + Buffer.from('opencode:' + process.env.OPENCODE_SERVER_PASSWORD).toString('base64');
Bun.serve({ hostname, port: Number(port), fetch: (req) => new Response(null, { status: req.headers.get('authorization') === expected ? 200 : 401 }) });
console.log('opencode server listening on http://' + hostname + ':' + port);
`;

const freePort = () => {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
  const port = probe.port as number;
  probe.stop(true);
  return port;
};

describe("opencode's server run by tether (the floor's TUI attaches to it)", () => {
  it('ready once it answers with the password; stopped, it ends', async () => {
    const { bin, dir } = fakeOpencode(SERVER);
    const port = freePort();
    const served = startServedOpencode({ bin, server: { url: `http://127.0.0.1:${port}`, port, password: 'pw' }, env: { PATH: process.env.PATH ?? '' }, cwd: dir });
    await served.ready;
    const pid = Number(await Bun.file(join(dir, 'pid')).text());
    expect(alive(pid)).toBe(true);
    served.stop();
    const deadline = Date.now() + 5_000;
    while (alive(pid) && Date.now() < deadline) await Bun.sleep(50);
    expect(alive(pid)).toBe(false);
  });

  it('a server that exits before answering: the launch is told why (its stderr)', async () => {
    const { bin, dir } = fakeOpencode(`console.error('port in use'); process.exit(3);`);
    const port = freePort();
    const served = startServedOpencode({ bin, server: { url: `http://127.0.0.1:${port}`, port, password: 'pw' }, env: { PATH: process.env.PATH ?? '' }, cwd: dir });
    await expect(served.ready).rejects.toThrow(/opencode serve exited \(3\) before it answered: port in use/);
  });
});
