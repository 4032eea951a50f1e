import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LaunchArgsError } from '../agent.ts';
import { geminiHookDialect, geminiHookSettings } from './hooks.ts';
import { planGeminiLaunch } from './launch.ts';
import { createGeminiGate, GATED_TOOLS_MATCHER, PLAN_DENIED } from './gate.ts';
import { geminiAgent } from './agent.ts';
import { geminiAcpArgs } from './headless.ts';
import { withHooks } from './home.ts';

describe('planGeminiLaunch', () => {
  it('reads the model, the resume id and the approval mode, and takes the mode flags out', () => {
    const plan = planGeminiLaunch(['-m', 'gemini-2.5-pro', '--approval-mode', 'auto_edit', '--resume', '5f0c1c56-3c4e-4b7e-9d1a-2f6a3c2b1d00', 'hello']);
    expect(plan).toEqual({ args: ['-m', 'gemini-2.5-pro', '--resume', '5f0c1c56-3c4e-4b7e-9d1a-2f6a3c2b1d00', 'hello'], permissionMode: 'acceptEdits', bypass: false, resumeId: '5f0c1c56-3c4e-4b7e-9d1a-2f6a3c2b1d00', model: 'gemini-2.5-pro', continue: false, addedDirs: [] });
    expect(planGeminiLaunch(['--yolo'])).toMatchObject({ args: [], permissionMode: 'bypassPermissions', bypass: true });
    expect(planGeminiLaunch(['--approval-mode=default', '-r', 'latest'])).toMatchObject({ args: ['-r', 'latest'], permissionMode: 'default', continue: true });
  });

  it('reads the added folders of --include-directories: comma-separated, trimmed, given again and again, and passes the flags on', () => {
    const plan = planGeminiLaunch(['--include-directories', '/srv/lib, ../notes,', '--include-directories=/opt/data', 'hello']);
    expect(plan.addedDirs).toEqual(['/srv/lib', '../notes', '/opt/data']);
    expect(plan.args).toEqual(['--include-directories', '/srv/lib, ../notes,', '--include-directories', '/opt/data', 'hello']);
    expect(planGeminiLaunch(['hello']).addedDirs).toEqual([]);
  });

  it('refuses what is not the TUI and an unknown mode', () => {
    for (const args of [['-p', 'hi'], ['--acp'], ['mcp', 'list'], ['--approval-mode', 'never'], ['-m']]) {
      expect(() => planGeminiLaunch(args), args.join(' ')).toThrow(LaunchArgsError);
    }
  });

  it('reads plan mode (a reviewer runs in it): headless, Gemini enforces it; in a PTY, the gate its hooks install', () => {
    const plan = planGeminiLaunch(['--approval-mode', 'plan']);
    expect(plan).toMatchObject({ permissionMode: 'plan', args: [] });
    expect(geminiAcpArgs(plan)).toEqual(['--acp', '--approval-mode', 'plan']);
    expect(geminiAgent.spawnArgs({ model: null, permissionMode: null, resumeId: null, readOnly: true })).toEqual(['--approval-mode', 'plan']);
    const home = mkdtempSync(join(tmpdir(), 'tether-gemini-test-'));
    mkdirSync(join(home, '.gemini'));
    try {
      const installed = geminiAgent.installHooks({ endpoint: { port: 1, secret: 'x'.repeat(32) }, permissionHook: true, plan, env: { HOME: home } });
      expect(installed.args).toEqual(['--approval-mode', 'yolo']);
      expect(installed.gate?.({ mode: 'plan', payload: { tool_name: 'write_file' }, agentAsksToo: false })).toEqual({ behavior: 'deny', message: PLAN_DENIED });
      installed.remove();
      // Headless: no hooks of tether's, so no gate (Gemini's own plan mode).
      const headless = geminiAgent.installHooks({ endpoint: { port: 1, secret: 'x'.repeat(32) }, permissionHook: false, plan, env: { HOME: home } });
      expect(headless.gate).toBeUndefined();
      headless.remove();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('the tools gate', () => {
  const gated = (tool: string) => new RegExp(GATED_TOOLS_MATCHER).test(tool);
  const gate = createGeminiGate({ allowed: ['run_shell_command', 'mcp_x(arg)'] });
  const shell = createGeminiGate({ allowed: [] });
  const call = (g: typeof gate, mode: Parameters<typeof gate>[0]['mode'], tool: string, agentAsksToo = false) => g({ mode, payload: { tool_name: tool }, agentAsksToo }).behavior;

  it('sees every tool but reading, whatever the mode (the mode may change under a running Gemini)', () => {
    for (const tool of ['run_shell_command', 'write_file', 'replace', 'web_fetch', 'mcp_github_create_issue', 'save_memory']) expect(gated(tool), tool).toBe(true);
    for (const tool of ['read_file', 'glob', 'grep_search', 'list_directory', 'google_web_search', 'ask_user', 'invoke_agent']) expect(gated(tool), tool).toBe(false);
    // A tool whose name only starts like a read-only one is gated.
    expect(gated('read_file_2')).toBe(true);
  });

  it('plan refuses every gated call, even one the user allowed by name, and one with no name (fail closed)', () => {
    for (const tool of ['run_shell_command', 'write_file', 'replace', 'web_fetch', 'mcp_github_create_issue', '']) expect(call(gate, 'plan', tool), tool).toBe('deny');
  });

  it('default asks the phone; auto-edit lets edits through; yolo everything; a tool allowed by name runs outside plan', () => {
    expect(call(shell, 'default', 'run_shell_command')).toBe('ask-person');
    expect(call(shell, 'default', 'write_file')).toBe('ask-person');
    expect(call(shell, 'acceptEdits', 'write_file')).toBe('allow');
    expect(call(shell, 'acceptEdits', 'replace')).toBe('allow');
    expect(call(shell, 'acceptEdits', 'run_shell_command')).toBe('ask-person');
    expect(call(shell, 'bypassPermissions', 'run_shell_command')).toBe('allow');
    expect(call(gate, 'default', 'run_shell_command')).toBe('allow');
    // An allow with arguments is no allow of the tool.
    expect(call(gate, 'default', 'mcp_x')).toBe('ask-person');
    // A mode Gemini has no gate policy for is asked.
    expect(call(shell, 'dontAsk', 'run_shell_command')).toBe('ask-person');
  });

  it("hands what it would ask to Gemini's own dialog while the desk has it out of yolo (its policy would ask again)", () => {
    expect(call(shell, 'default', 'run_shell_command', true)).toBe('ask-agent');
    expect(call(shell, 'acceptEdits', 'write_file', true)).toBe('allow');
    expect(call(shell, 'plan', 'write_file', true)).toBe('deny');
  });
});

describe('Gemini hook settings and dialect', () => {
  it('registers the fact hooks, and the permission gate fail-closed when there is one', () => {
    const settings = geminiHookSettings({ commandFor: (event) => `tether hook ${event}`, matcher: '^x$', permissionHook: true });
    expect(Object.keys(settings).sort()).toEqual(['AfterAgent', 'AfterTool', 'BeforeAgent', 'BeforeTool', 'Notification', 'SessionStart']);
    const before = settings.BeforeTool![0] as { matcher: string; hooks: Array<{ command: string; timeout: number }> };
    expect(before.matcher).toBe('^x$');
    expect(before.hooks[0]!.command).toBe(`TETHER_HOOK_UNANSWERED='{"decision":"ask"}' tether hook permission-request || echo '{"decision":"ask"}'`);
    expect(before.hooks[0]!.timeout).toBe(86_400_000);
    expect(geminiHookSettings({ commandFor: () => 'x', matcher: null, permissionHook: true }).BeforeTool).toBeUndefined();
    expect(geminiHookSettings({ commandFor: () => 'x', matcher: '^x$', permissionHook: false }).BeforeTool).toBeUndefined();
  });

  it("adds tether's hooks after the user's own", () => {
    const merged = withHooks({ theme: 'x', hooks: { BeforeTool: [{ hooks: ['mine'] }] } }, { BeforeTool: [{ hooks: ['tether'] }], SessionStart: [{ hooks: ['t2'] }] });
    expect(merged).toEqual({ theme: 'x', hooks: { BeforeTool: [{ hooks: ['mine'] }, { hooks: ['tether'] }], SessionStart: [{ hooks: ['t2'] }] } });
  });

  it("answers in Gemini's words, asking at the desk when nobody answered", () => {
    expect(geminiHookDialect.permission(null)).toEqual({ decision: 'ask' });
    expect(geminiHookDialect.permission({ behavior: 'allow' })).toEqual({ decision: 'allow' });
    expect(geminiHookDialect.permission({ behavior: 'deny', message: 'not that one' })).toEqual({ decision: 'deny', reason: 'not that one' });
    expect(geminiHookDialect.payload('permission-request', { tool_name: 'run_shell_command', tool_input: { command: 'ls', description: 'list' } })).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'ls', description: 'list' } });
    expect(geminiHookDialect.payload('notification', { notification_type: 'ToolPermission' })).toMatchObject({ notification_type: 'permission_prompt' });
  });
});
