// binary-main.ts: the entry of the single-file binary (`bun build --compile`, scripts/build/binaries.ts).
// Before the verb table loads, it hands the read loop the librust_pty that bun-pty embedded, then runs
// main.ts as the checkout and the package do. Never run from source: the require below is only
// meaningful to the compiler, which evaluates process.platform/arch for the target and embeds that
// one file (the same file bun-pty's own compiled lookup embeds, so both open one library).
import { useEmbeddedPtyLibrary } from './pty/native-library.ts';

const library: string = require(
  `bun-pty/rust-pty/target/release/${process.platform === 'darwin' ? (process.arch === 'arm64' ? 'librust_pty_arm64.dylib' : 'librust_pty.dylib') : process.arch === 'arm64' ? 'librust_pty_arm64.so' : 'librust_pty.so'}`,
);
useEmbeddedPtyLibrary(library);
await import('./main.ts');
