// target-oracle.ts: the fuzz suites' own answer to "may this request target reach the hub?", written
// apart from hub/src/reach/host-allowlist.ts so a bug there is not copied into what checks it. A path
// always may; an absolute-form target may when its authority is an IP literal or one of `names`
// (case and a trailing dot ignored, a port of at most 65535, no userinfo).
import { isIP } from 'node:net';

export function targetAllowed(target: string, names: readonly string[]): boolean {
  if (target.startsWith('/')) return true;
  const m = /^(https?):\/\/([^/?#]*)/i.exec(target);
  if (!m || m[2]!.includes('@')) return false;
  const authority = m[2]!.toLowerCase();
  const bracket = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/.exec(authority);
  if (bracket) return URL.canParse(`http://[${bracket[1]}]/`) && (!bracket[2] || Number(bracket[2]) <= 65535);
  const [host, port, extra] = authority.split(':');
  if (extra !== undefined || (port !== undefined && !(/^\d{1,5}$/.test(port) && Number(port) <= 65535))) return false;
  const name = host!.replace(/\.$/, '');
  return isIP(name) !== 0 || names.includes(name);
}
