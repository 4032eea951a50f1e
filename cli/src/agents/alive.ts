// alive.ts: whether a process id names a live process (EPERM: alive, another user's). An agent's own
// status records (claude's sessions/*.json), the daemon's runner records and a relay hub's status
// file all name processes.
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
