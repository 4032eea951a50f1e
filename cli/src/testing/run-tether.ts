// run-tether.ts: `tether <args>` as a person types it, in a process of its own, logged in nowhere
// (no hub URL, no token): what a verb says and refuses before it asks any hub (test support).
import { join } from 'node:path';

const MAIN = join(import.meta.dirname, '..', 'main.ts');

export async function runTether(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, MAIN, ...args], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, TETHER_HUB_URL: '', TETHER_TOKEN: '' } });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { status: await proc.exited, stdout, stderr };
}
