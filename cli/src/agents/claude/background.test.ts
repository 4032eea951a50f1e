import { describe, expect, it } from 'vitest';
import { AgentCapabilitiesSchema } from '@tether/shared';
import { adoptedCapabilities, backgroundSupportFromHelp, claudeAttachArgs, claudeTranscriptPath, parseBackgroundList } from './background.ts';
import { claudeCapabilities } from './capabilities.ts';

// What `claude agents --json` printed, observed offline (CLAUDE-CODE.md §11).
const LISTED_2_1_332 = `[
  { "pid": 11057, "id": "f35b2b97", "cwd": "/tmp/p", "kind": "background", "startedAt": 1796540703945,
    "sessionId": "f35b2b97-9478-455f-b241-bb76a83ff53d", "name": "say hello", "status": "idle", "state": "working" }
]`;
const LISTED_2_1_197 = `[
  { "id": "b77913ea", "cwd": "/tmp/p", "kind": "background", "startedAt": 1796540783003,
    "sessionId": "b77913ea-8bb3-431f-8bd7-4fefc04cac3e", "name": "say hello", "state": "working" }
]`;

describe('claude agents --json', () => {
  it('reads both pinned versions (2.1.197 names no pid and no status)', () => {
    expect(parseBackgroundList(LISTED_2_1_332)).toEqual([expect.objectContaining({ id: 'f35b2b97', pid: 11057, sessionId: 'f35b2b97-9478-455f-b241-bb76a83ff53d', cwd: '/tmp/p' })]);
    const [old] = parseBackgroundList(LISTED_2_1_197);
    expect(old).toMatchObject({ id: 'b77913ea', sessionId: 'b77913ea-8bb3-431f-8bd7-4fefc04cac3e' });
    expect(old!.pid).toBeUndefined();
    expect(parseBackgroundList('[]')).toEqual([]);
  });

  it('refuses what is not its listing, with what was wrong', () => {
    expect(() => parseBackgroundList('No job matching')).toThrow(/printed no JSON/);
    expect(() => parseBackgroundList('{"id":"f35b2b97"}')).toThrow(/unexpected list/);
    // An id that would not be claude's own must never reach a command line.
    expect(() => parseBackgroundList(LISTED_2_1_332.replace('"f35b2b97"', '"--rm -rf"'))).toThrow(/unexpected list/);
  });
});

describe('background support', () => {
  it('is there when --help lists --bg and the agents command (2.1.197 and 2.1.332)', () => {
    const help = 'Options:\n  --bg, --background   Start the session as a background agent\nCommands:\n  agents [options]   Manage background agents\n';
    expect(backgroundSupportFromHelp(help, '2.1.197')).toEqual({ ok: true });
  });

  it('is absent with its reason when a claude has neither', () => {
    const help = 'Options:\n  --model <model>   Model\nCommands:\n  mcp   Configure MCP servers\n';
    expect(backgroundSupportFromHelp(help, '2.0.1')).toEqual({ ok: false, reason: expect.stringContaining('claude 2.0.1 has no background sessions (its --help lists no --bg and the agents command)') });
  });
});

describe('an adopted session', () => {
  it('relays only dialogs, takes no session rules, and says so', () => {
    const caps = AgentCapabilitiesSchema.parse(adoptedCapabilities({ base: claudeCapabilities, id: 'f35b2b97' }));
    expect(caps.relays).toEqual({ requests: ['dialog'], editedInput: false, sessionRules: false });
    expect(caps.adopted).toEqual({ backgroundId: 'f35b2b97', note: expect.stringMatching(/^adopted: no hook approvals/), stop: true });
  });

  it('attaches by its id only, and finds its transcript by its conversation id', () => {
    expect(claudeAttachArgs('f35b2b97')).toEqual(['attach', 'f35b2b97']);
    expect(() => claudeAttachArgs('-x')).toThrow();
    expect(claudeTranscriptPath({ configDir: '/c', cwd: '/tmp/my project', sessionId: 'b77913ea-8bb3-431f-8bd7-4fefc04cac3e' })).toBe('/c/projects/-tmp-my-project/b77913ea-8bb3-431f-8bd7-4fefc04cac3e.jsonl');
  });
});
