// terminal-wetty.ts: WeTTY (npm `wetty`) measured beside tether, if it can be installed here from
// the npm registry alone. Anything that stops it (no network, a native build that would download
// headers or binaries) becomes an entry with "error" saying why: never a made-up number.
type Measurement = { name: string; value: number; unit: string } & Record<string, unknown>;

export async function measureWetty(_options: { throughputMb: number; echoKeys: number }): Promise<Measurement[]> {
  const why = 'not measured yet';
  return [
    { name: 'wetty_throughput_mb_s', value: Number.NaN, unit: 'MB/s', error: why },
    { name: 'wetty_echo_ms_p99', value: Number.NaN, unit: 'ms', error: why },
  ];
}
