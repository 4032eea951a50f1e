import { describe, expect, it } from 'vitest';
import { DEFAULT_TERMINAL_MEMORY_BYTES, parseTerminalMemoryMb, TERMINAL_LOG_FLOOR_BYTES, terminalLogCap } from './log-budget.ts';
import { DEFAULT_TERMINAL_LOG_BYTES } from './byte-log.ts';

const MiB = 1024 * 1024;

describe('terminal log budget', () => {
  it('shares the budget between the live terminals, between the floor and the per-terminal max', () => {
    const budget = DEFAULT_TERMINAL_MEMORY_BYTES;
    expect(terminalLogCap({ budget, live: 0 })).toBe(DEFAULT_TERMINAL_LOG_BYTES);
    expect(terminalLogCap({ budget, live: 10 })).toBe(DEFAULT_TERMINAL_LOG_BYTES);
    expect(terminalLogCap({ budget, live: 1000 })).toBe(Math.floor(budget / 1000));
    expect(terminalLogCap({ budget, live: 5000 })).toBe(TERMINAL_LOG_FLOOR_BYTES);
    // A per-terminal max below the floor (small test hubs) wins.
    expect(terminalLogCap({ budget, live: 5000, max: 1000 })).toBe(1000);
  });

  it('reads a budget in MiB, refusing what is not a number or is below one terminal\'s floor', () => {
    expect(parseTerminalMemoryMb('256')).toEqual({ bytes: 256 * MiB });
    expect(parseTerminalMemoryMb('0.5')).toEqual({ bytes: MiB / 2 });
    expect(parseTerminalMemoryMb('lots')).toEqual({ error: 'must be a number of MiB, got "lots"' });
    expect(parseTerminalMemoryMb('')).toMatchObject({ error: expect.stringMatching(/number of MiB/) });
    expect(parseTerminalMemoryMb('0.1')).toEqual({ error: 'must be at least 0.125 MiB (one terminal\'s floor, 128 KiB), got "0.1"' });
    expect(parseTerminalMemoryMb('-4')).toMatchObject({ error: expect.stringMatching(/at least/) });
  });
});
