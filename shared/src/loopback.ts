// loopback.ts: which host names and addresses mean "this machine only". One answer for the hub's
// bind warning, `--public-url`'s http exception, the LAN URL and the pairing link: a phone that
// opens a loopback URL reaches itself, so none of them may treat one as a way in.

/** A host (a URL's hostname, a bind address; brackets allowed) that names this machine's loopback:
 *  `localhost` and its subdomains, 127.0.0.0/8, ::1 and ::ffff:127.x. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (/^127(?:\.\d{1,3}){3}$/.test(h)) return true;
  return h === '::1' || h === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(h);
}

/** The unspecified address (`0.0.0.0`, `::`): a bind to every interface, never a place to go to. */
export function isUnspecifiedHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return h === '0.0.0.0' || h === '::';
}
