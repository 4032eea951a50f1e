// native-library.ts: the path of bun-pty's native library (librust_pty), so the read loop opens the
// very library bun-pty opened (dlopen of the same path returns the loaded one; PTY handles are
// indexes into that library's table, so a second copy would know none of them).
// Invariant: the same answer bun-pty's own lookup gives: BUN_PTY_LIB when set and present, else the
// file inside the bun-pty package, else (single-file binary) the embedded file that bun-pty's
// compiled lookup returns, which cli/src/binary-main.ts hands in before anything opens a PTY.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

let embedded: string | null = null;

/** Single-file binary: bun-pty's library as embedded in the executable (a /$bunfs/… path). */
export function useEmbeddedPtyLibrary(path: string): void {
  embedded = path;
}

/** Where librust_pty is for this platform, or null on a platform bun-pty has no library for here. */
export function ptyLibraryPath(): string | null {
  const env = process.env.BUN_PTY_LIB;
  if (env && existsSync(env)) return env;
  if (embedded) return embedded;
  const arch = process.arch === 'arm64' ? '_arm64' : '';
  const name = process.platform === 'darwin' ? `librust_pty${arch}.dylib` : process.platform === 'linux' ? `librust_pty${arch}.so` : null;
  if (!name) return null;
  return createRequire(import.meta.url).resolve(`bun-pty/rust-pty/target/release/${name}`);
}
