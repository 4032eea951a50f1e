// A dialog claude draws at start ("New MCP server found" for a .mcp.json) from a shell: `tether
// pending` lists it with its numbered options, `tether answer … allow` without a choice is refused by
// the hub (it would resolve the request while claude still waits), `--choice N` presses option N, and
// the audit keeps the choice.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PendingRequest } from '@tether/shared';
import { text } from '../fixtures/fake-anthropic/index.ts';
import { phoneFor } from '../harness/approvals.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { DESK_READY, startStage } from '../harness/world.ts';
import { runTether } from '../harness/tether-cli.ts';

const defer = useCleanups();

const tether = (args: string[], env: Record<string, string>) => runTether({ args, env });

describe('a dialog from a shell', () => {
  it('tether pending lists the options; tether answer needs --choice, which presses that option', async () => {
    const { hub, sandbox, startRunner } = await startStage(defer, { script: [text('after the dialog')] });
    writeFileSync(join(sandbox.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { 'shell-probe': { command: 'true', args: [] } } }));
    const runner = startRunner();
    await runner.waitForScreen(/New MCP server found/);
    const phone = await phoneFor(hub, runner.sessionId);
    defer(() => phone.stop());
    const request = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'dialog'), { what: 'the dialog request' });
    const env = { TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, TETHER_HOME: runner.home };

    const listed = await tether(['pending'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(request.id);
    expect(listed.stdout).toContain('New MCP server found in this project: shell-probe');
    expect(listed.stdout).toContain('3. Continue without using this MCP server');
    const json = JSON.parse((await tether(['pending', '--json'], env)).stdout) as { pending: PendingRequest[] };
    expect(json.pending).toEqual([expect.objectContaining({ id: request.id, kind: 'dialog', toolName: 'Dialog' })]);

    const bare = await tether(['answer', request.id, 'allow'], env);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('a dialog is answered by choosing one of its options');
    const wrong = await tether(['answer', request.id, 'allow', '--choice', '7'], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('the dialog has no option "7"');
    expect(runner.screenText()).toMatch(/New MCP server found/); // nothing was pressed

    const chosen = await tether(['answer', request.id, 'allow', '--choice', '3'], env);
    expect(chosen).toMatchObject({ code: 0, stdout: expect.stringContaining('option 3') });
    await runner.waitForScreen(DESK_READY);
    const res = await fetch(`${hub.url}/api/sessions/${runner.sessionId}`, { headers: { authorization: `Bearer ${hub.token}` } });
    const body = (await res.json()) as { audit: Array<{ requestId: string; toolName?: string; answer: { choice?: string } | null; device: string | null }> };
    expect(body.audit.find((a) => a.requestId === request.id)).toMatchObject({ toolName: 'Dialog', answer: { decision: 'allow', choice: '3' }, device: 'tether answer' });
  }, 60_000);
});
