// echo-keys.ts: keys typed one at a time, each timed to its echo, after a warm-up (the terminal
// bench's tether, raw PTY and WeTTY paths alike; why the warm-up: terminal.bench.ts, ECHO_WARMUP_KEYS).

/** `warmup` keys, then `keys` more: the first `keys` of the warm-up (cold) and the rest (warm), each sorted. */
export async function typeKeys(options: { keys: number; warmup: number; key: () => Promise<number> }): Promise<{ cold: number[]; warm: number[] }> {
  const cold: number[] = [];
  for (let i = 0; i < options.warmup; i++) {
    const ms = await options.key();
    if (i < options.keys) cold.push(ms);
  }
  const warm: number[] = [];
  for (let i = 0; i < options.keys; i++) warm.push(await options.key());
  return { cold: cold.sort((a, b) => a - b), warm: warm.sort((a, b) => a - b) };
}
