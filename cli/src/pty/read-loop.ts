// read-loop.ts: replaces bun-pty's read loop on one PTY with one that yields to the event loop.
//
// bun-pty (0.4.x) reads in a synchronous `while` that only awaits when a read returns nothing. A
// command that writes without pause (`cat big.log`, `yes`) therefore starves the whole runner: the
// screen model never parses (xterm then throws "write data discarded" at 50 MB and the runner
// dies), hub acks and pings are not handled, and the desk's Ctrl-C is not read. This loop is the
// same code with one change: after READ_YIELD_BYTES it yields a macrotask. It is installed before
// bun-pty starts its own loop (bun-pty starts it in a microtask after spawn); if the native library
// cannot be opened here, bun-pty's loop runs unchanged.
import { dlopen, FFIType, ptr } from 'bun:ffi';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IPty } from 'bun-pty';

/** Bytes read between yields. 64 KiB is ~6 ms of the fastest PTY output here, so timers, sockets
 *  and the screen parser get a turn at least that often, while a yield per read (4 KiB) would cost
 *  throughput for nothing. */
export const READ_YIELD_BYTES = 64 * 1024;
/** bun-pty's own pause when nothing is readable. */
const IDLE_POLL_MS = 8;
const READ_BUFFER_BYTES = 4096;

type Native = { read(handle: number, buf: Uint8Array): number; exitCode(handle: number): number };
let native: Native | null | undefined;

function openNative(): Native | null {
  if (native !== undefined) return native;
  native = null;
  try {
    const require = createRequire(import.meta.url);
    const arch = process.arch === 'arm64' ? '_arm64' : '';
    const name = process.platform === 'darwin' ? `librust_pty${arch}.dylib` : process.platform === 'linux' ? `librust_pty${arch}.so` : null;
    if (!name) return null;
    const path = process.env.BUN_PTY_LIB && existsSync(process.env.BUN_PTY_LIB) ? process.env.BUN_PTY_LIB : require.resolve(`bun-pty/rust-pty/target/release/${name}`);
    // The same library bun-pty opened: dlopen returns the loaded one, so handles are shared.
    const lib = dlopen(path, {
      bun_pty_read: { args: [FFIType.i32, FFIType.pointer, FFIType.i32], returns: FFIType.i32 },
      bun_pty_get_exit_code: { args: [FFIType.i32], returns: FFIType.i32 },
    });
    native = {
      read: (handle, buf) => lib.symbols.bun_pty_read(handle, ptr(buf), buf.length),
      exitCode: (handle) => lib.symbols.bun_pty_get_exit_code(handle),
    };
  } catch {
    native = null;
  }
  return native;
}

type BunPtyInternals = {
  handle: number;
  _readLoop: boolean;
  _closing: boolean;
  _decoder: TextDecoder;
  _onData: { fire(data: string): void };
  _onExit: { fire(event: { exitCode: number }): void };
  _startReadLoop: () => Promise<void>;
};

/** Call right after `spawn()`, before awaiting anything. Returns false when bun-pty's loop stays. */
export function installYieldingReadLoop(pty: IPty): boolean {
  const lib = openNative();
  const t = pty as unknown as BunPtyInternals;
  if (!lib || typeof t._startReadLoop !== 'function' || typeof t.handle !== 'number' || !t._decoder || !t._onData || !t._onExit) return false;
  t._startReadLoop = async function yieldingReadLoop(this: BunPtyInternals) {
    if (this._readLoop) return;
    this._readLoop = true;
    const buf = new Uint8Array(READ_BUFFER_BYTES);
    let sinceYield = 0;
    while (this._readLoop && !this._closing) {
      const n = lib.read(this.handle, buf);
      if (n > 0) {
        const decoded = this._decoder.decode(buf.subarray(0, n), { stream: true });
        if (decoded) this._onData.fire(decoded);
        sinceYield += n;
        if (sinceYield >= READ_YIELD_BYTES) {
          sinceYield = 0;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      } else if (n === -2) {
        const remaining = this._decoder.decode();
        if (remaining) this._onData.fire(remaining);
        this._onExit.fire({ exitCode: lib.exitCode(this.handle) });
        break;
      } else if (n < 0) {
        const remaining = this._decoder.decode();
        if (remaining) this._onData.fire(remaining);
        break;
      } else {
        sinceYield = 0;
        await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
      }
    }
  };
  return true;
}
