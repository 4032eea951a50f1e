// echo-trace.ts: bench-only timestamps of a key's echo at each hop through the hub, to find where
// the echo's tail comes from (docs/decisions/terminal.md, "Echo tail"). Off unless
// TETHER_ECHO_TRACE names a file; then each mark appends "<hop> <epoch ms>" to it (the runner
// and the bench append to the same file, same clock).
import { appendFileSync } from 'node:fs';

const file = process.env.TETHER_ECHO_TRACE;

export const echoMark: (hop: string) => void = file
  ? (hop) => appendFileSync(file, `${hop} ${(performance.timeOrigin + performance.now()).toFixed(3)}\n`)
  : () => {};
