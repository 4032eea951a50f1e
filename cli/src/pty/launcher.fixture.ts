// launcher.fixture.ts: an agent shaped like Gemini CLI's launcher, for pty.test.ts. Run with no
// argument it ignores SIGINT, SIGTERM and SIGHUP and waits for the real process, a child of its own
// in the same process group, which prints its pid and runs until a signal ends it.
if (process.argv[2] === 'child') {
  console.log(`child-pid ${process.pid}`);
  setInterval(() => {}, 60_000);
} else {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {});
  const child = Bun.spawn([process.execPath, import.meta.path, 'child'], { stdio: ['inherit', 'inherit', 'inherit'] });
  process.exit(await child.exited);
}
