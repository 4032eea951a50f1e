import { readFileSync, statSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildHookSettings, writeHookSettings } from './hook-settings.ts';
import { HOOK_SECRET_HEADER } from '../../hooks/events.ts';

type Entry = { type: string; url?: string; headers?: Record<string, string>; command?: string; timeout: number };
type Settings = { hooks: Record<string, Array<{ matcher?: string; hooks: Entry[] }>> };

const endpoint = { port: 41234, secret: 's3cret' };

describe('hook settings', () => {
  it('registers HTTP hooks with the secret header for every event but SessionStart, which stays a command', () => {
    const { hooks } = buildHookSettings({ endpoint, endpointPath: '/tmp/x/endpoint.json', tether: ['/bin/tether'] }) as Settings;
    expect(Object.keys(hooks).sort()).toEqual(['Elicitation', 'Notification', 'PermissionRequest', 'PostToolUse', 'PreToolUse', 'SessionStart', 'Stop', 'StopFailure', 'UserPromptSubmit']);
    for (const [name, groups] of Object.entries(hooks)) {
      const entry = groups[0]!.hooks[0]!;
      if (name === 'SessionStart') {
        expect(entry.type).toBe('command');
        expect(entry.command).toBe("TETHER_HOOK_FILE='/tmp/x/endpoint.json' '/bin/tether' hook session-start");
        expect(entry.command).not.toContain(endpoint.secret);
        continue;
      }
      expect(entry.type).toBe('http');
      expect(entry.url).toMatch(/^http:\/\/127\.0\.0\.1:41234\/hook\/[a-z-]+$/);
      expect(entry.headers).toEqual({ [HOOK_SECRET_HEADER]: endpoint.secret });
    }
    expect(hooks.PermissionRequest![0]!.matcher).toBe('*');
    // Reads are not observed (each HTTP hook costs claude ~20 ms); everything else, new tools too, is.
    const observed = new RegExp(hooks.PreToolUse![0]!.matcher!);
    expect(['Read', 'Grep', 'Glob'].some((tool) => observed.test(tool))).toBe(false);
    expect(['Bash', 'Edit', 'Write', 'AskUserQuestion', 'ExitPlanMode', 'mcp__x__y', 'Reader'].every((tool) => observed.test(tool))).toBe(true);
    expect(hooks.PostToolUse![0]!.matcher).toBe(hooks.PreToolUse![0]!.matcher);
    // A person may take their time: the permission and elicitation hooks wait a day, the facts 30 s.
    expect(hooks.PermissionRequest![0]!.hooks[0]!.timeout).toBe(86_400);
    expect(hooks.Elicitation![0]!.hooks[0]!.timeout).toBe(86_400);
    expect(hooks.Elicitation![0]!.matcher).toBeUndefined();
    expect(hooks.Stop![0]!.hooks[0]!.timeout).toBe(30);
    expect(hooks.StopFailure![0]!.hooks[0]!.timeout).toBe(30);
  });

  it('leaves PermissionRequest out for headless sessions (they ask over stream-json)', () => {
    const { hooks } = buildHookSettings({ endpoint, endpointPath: '/e', permissionHook: false }) as Settings;
    expect(hooks.PermissionRequest).toBeUndefined();
    expect(hooks.PreToolUse).toBeDefined();
  });

  it('writes a private dir (0700, files 0600) and removes all of it', () => {
    const dir = writeHookSettings({ endpoint });
    expect(statSync(dir.dir).mode & 0o777).toBe(0o700);
    expect(statSync(dir.settingsPath).mode & 0o777).toBe(0o600);
    expect(statSync(dir.endpointPath).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(dir.endpointPath, 'utf8'))).toEqual(endpoint);
    dir.remove();
    expect(existsSync(dir.dir)).toBe(false);
  });
});
