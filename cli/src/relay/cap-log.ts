// cap-log.ts: turns nginx's "limiting connections by zone" warnings into tether relay's own lines,
// naming the hub (its second hop's port says which) or the client address. A flood must not flood
// the log: the first refusal for a hub or a client is said at once, later ones within the window
// are counted and said by flush() (the relay calls it every window).
//
//   nginx: … limiting connections by zone "per_hub" …, server: 127.0.0.1:10000
//   relay: cap: hub alpha.relay.example is at its 256 connections; refused 1 connection
const REFUSED = /limiting connections by zone "(per_hub|per_client)".*?client: (\S+?),.*?server: (\S+?)(?:,|$)/;

export type CapLogOptions = { domain: string; hubAtPort: (port: number) => string | undefined; perHub: number; perClient: number; windowMs: number; now?: () => number };

export function capLog(options: CapLogOptions) {
  const now = options.now ?? Date.now;
  /** Per subject: when it was last said, and refusals since then not yet said. */
  const seen = new Map<string, { saidAt: number; pending: number }>();
  const say = (subject: string, count: number) => `relay: cap: ${subject}; refused ${count} connection${count === 1 ? '' : 's'}`;

  const subjectOf = (zone: string, client: string, server: string): string => {
    if (zone === 'per_client') return `client ${client} is at its ${options.perClient} connections`;
    const port = Number(server.slice(server.lastIndexOf(':') + 1));
    const hub = options.hubAtPort(port);
    return `hub ${hub ? `${hub}.${options.domain}` : `at ${server}`} is at its ${options.perHub} connections`;
  };

  return {
    /** One line of nginx's stderr in; the lines to print now out. */
    feed(text: string): string[] {
      const match = REFUSED.exec(text);
      if (!match) return [];
      const subject = subjectOf(match[1]!, match[2]!, match[3]!);
      const entry = seen.get(subject);
      if (entry && now() - entry.saidAt < options.windowMs) {
        entry.pending++;
        return [];
      }
      seen.set(subject, { saidAt: now(), pending: 0 });
      return [say(subject, 1)];
    },
    /** The refusals counted but not said yet; forgets subjects quiet for a whole window. */
    flush(): string[] {
      const out: string[] = [];
      for (const [subject, entry] of seen) {
        if (entry.pending > 0) {
          out.push(say(subject, entry.pending));
          seen.set(subject, { saidAt: now(), pending: 0 });
        } else if (now() - entry.saidAt >= options.windowMs) seen.delete(subject);
      }
      return out;
    },
  };
}
