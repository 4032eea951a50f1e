import { describe, expect, it } from 'vitest';
import { LaunchArgsError } from '../agent.ts';
import { geminiHookDialect, geminiHookSettings } from './hooks.ts';
import { askingToolsMatcher, planGeminiLaunch } from './launch.ts';
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

  it('reads plan mode (a headless reviewer runs in it); a PTY refuses it where its hooks go in', () => {
    const plan = planGeminiLaunch(['--approval-mode', 'plan']);
    expect(plan).toMatchObject({ permissionMode: 'plan', args: [] });
    expect(geminiAcpArgs(plan)).toEqual(['--acp', '--approval-mode', 'plan']);
    const endpoint = { port: 1, secret: 'x'.repeat(32) };
    expect(() => geminiAgent.installHooks({ endpoint, permissionHook: true, plan, env: {} })).toThrow(/headless only/);
    expect(geminiAgent.spawnArgs({ model: null, permissionMode: null, resumeId: null, readOnly: true })).toEqual(['--approval-mode', 'plan']);
  });
});

describe('the tools gate', () => {
  const gate = (mode: Parameters<typeof askingToolsMatcher>[0]['mode'], allowed?: string[]) => {
    const matcher = askingToolsMatcher({ mode, ...(allowed ? { allowed } : {}) });
    return matcher === null ? null : (tool: string) => new RegExp(matcher).test(tool);
  };

  it('asks in default mode about shell, edits, fetches and unknown tools, never about reading', () => {
    const asks = gate('default')!;
    for (const tool of ['run_shell_command', 'write_file', 'replace', 'web_fetch', 'mcp_github_create_issue']) expect(asks(tool), tool).toBe(true);
    for (const tool of ['read_file', 'glob', 'grep_search', 'list_directory', 'google_web_search', 'ask_user', 'invoke_agent']) expect(asks(tool), tool).toBe(false);
  });

  it('lets edits through in auto_edit, everything in yolo, and the tools the user allowed by name', () => {
    const asks = gate('acceptEdits')!;
    expect(asks('write_file')).toBe(false);
    expect(asks('replace')).toBe(false);
    expect(asks('run_shell_command')).toBe(true);
    expect(gate('bypassPermissions')).toBeNull();
    const allowed = gate('default', ['run_shell_command', 'run_shell_command(git status)'])!;
    expect(allowed('run_shell_command')).toBe(false);
    // A tool whose name only starts like an allowed one still asks.
    expect(allowed('run_shell_command_2')).toBe(true);
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
