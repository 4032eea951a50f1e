// codex-network.ts (harness): a Codex sandbox whose commands reach the network only through Codex's
// managed network proxy, so that a host not on its allowlist is asked about (a network approval:
// `networkApprovalContext {host, protocol}` headless, a PermissionRequest hook in a PTY).
//
// Codex asks only when its *managed* network requirements are on: a `[experimental_network]` table in
// /etc/codex/requirements.toml, an administrator's file (0.160.0 and 0.171.0: without it the proxy
// runs from the user's config alone and denies an allowlist miss without asking). The test never
// writes the machine's /etc: `bin` is a wrapper that runs the pinned Codex under `unshare -rm` with an
// overlay on /etc whose upper layer holds that one file; only this Codex process tree sees it.
// The user's side (config.toml, configNetwork()): a permission profile with network through the
// proxy (limited mode: GET/HEAD) and loopback allowed, so a target on 127.0.0.1 can be reached once
// allowed. Commands go through the proxy only when told to (`curl --noproxy ''`): Codex's NO_PROXY
// names loopback, and the sandbox has no other way out.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const UNSHARE_BIN = process.env.TETHER_UNSHARE ?? '/usr/bin/unshare';

/** The lines config.toml gets instead of `sandbox_mode` (top: before any table; tables: at the end). */
export function configNetwork(): { top: string[]; tables: string[] } {
  return {
    top: ['default_permissions = "networked"'],
    tables: [
      '[features]',
      'network_proxy = true',
      '[permissions.networked.filesystem]',
      '"/" = "read"',
      '":workspace_roots" = "write"',
      '[permissions.networked.network]',
      'enabled = true',
      'mode = "limited"',
      'allow_local_binding = true',
    ],
  };
}

/** Writes the private /etc layer and a wrapper of `codex` (the pinned binary) under `root`; returns the wrapper's path. */
export function managedNetworkCodex(o: { root: string; codex: string }): string {
  const { root } = o;
  const upper = join(root, 'etc-upper');
  const work = join(root, 'etc-work');
  mkdirSync(join(upper, 'codex'), { recursive: true });
  mkdirSync(work);
  writeFileSync(join(upper, 'codex', 'requirements.toml'), '[experimental_network]\nenabled = true\n');
  const bin = join(root, 'bin', 'codex');
  mkdirSync(join(root, 'bin'));
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const mount = `mount -t overlay overlay -o lowerdir=/etc,upperdir=${upper},workdir=${work} /etc && exec "$0" "$@"`;
  writeFileSync(bin, `#!/bin/sh\nexec ${quote(UNSHARE_BIN)} -rm /bin/sh -c ${quote(mount)} ${quote(o.codex)} "$@"\n`);
  chmodSync(bin, 0o755);
  return bin;
}

/** A loopback HTTP server that records the paths asked of it: the host a sandboxed command asks to reach. */
export function startNetworkTarget(): { port: number; paths: string[]; stop(): void } {
  const paths: string[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      paths.push(new URL(request.url).pathname);
      return new Response(`hello from the target${new URL(request.url).pathname}\n`);
    },
  });
  return { port: server.port!, paths, stop: () => void server.stop(true) };
}
