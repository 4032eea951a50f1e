// ipc-workers.ts: bench child processes spoken to over Bun's IPC, one request at a time (the load
// generators of load/fleet.ts, the fan-out viewers of terminal.bench.ts). A reply of type 'error'
// rejects the request; a stop asks each to go, and kills one that has not gone after graceMs.
export type IpcWorker<Request, Reply> = { proc: ReturnType<typeof Bun.spawn>; ask(request: Request): Promise<Reply> };

export function startIpcWorker<Request, Reply extends { type: string }>(file: string): IpcWorker<Request, Reply> {
  let waiter: ((reply: Reply) => void) | null = null;
  const proc = Bun.spawn([process.execPath, file], {
    stdio: ['ignore', 'inherit', 'inherit'],
    serialization: 'json',
    ipc: (message) => waiter?.(message as Reply),
  });
  return {
    proc,
    ask: (request) =>
      new Promise((resolve, reject) => {
        waiter = (reply) => (reply.type === 'error' ? reject(new Error((reply as { message?: string }).message)) : resolve(reply));
        proc.send(request);
      }),
  };
}

export async function stopIpcWorkers(workers: Array<IpcWorker<unknown, unknown>>, options: { stop: unknown; graceMs: number }): Promise<void> {
  for (const w of workers) {
    try {
      w.proc.send(options.stop);
    } catch {
      // already gone
    }
  }
  const timer = setTimeout(() => workers.forEach((w) => w.proc.kill()), options.graceMs);
  await Promise.all(workers.map((w) => w.proc.exited));
  clearTimeout(timer);
}
