// cap-log.test.ts: nginx's real refusal lines (copied from nginx 1.22's stderr) become the relay's
// own, one at once per hub or client, the rest counted and said by flush().
import { describe, expect, it } from 'vitest';
import { capLog } from './cap-log.ts';

const HUB_LINE = '2026/11/27 12:01:09 [warn] 24935#24935: *10 limiting connections by zone "per_hub" while initializing session, client: unix:, server: 127.0.0.1:10000';
const CLIENT_LINE = '2026/11/27 12:01:09 [warn] 24935#24935: *11 limiting connections by zone "per_client" while initializing session, client: 203.0.113.9, server: 0.0.0.0:443';

describe('relay cap log', () => {
  it('names the hub or the client, says the first refusal at once and counts the rest', () => {
    let t = 0;
    const log = capLog({ domain: 'relay.example', hubAtPort: (port) => (port === 10000 ? 'alpha' : undefined), perHub: 8, perClient: 40, windowMs: 10_000, now: () => t });
    expect(log.feed('2026/11/27 12:01:08 [notice] 1#1: start worker processes')).toEqual([]);
    expect(log.feed(HUB_LINE)).toEqual(['relay: cap: hub alpha.relay.example is at its 8 connections; refused 1 connection']);
    expect(log.feed(HUB_LINE)).toEqual([]);
    expect(log.feed(HUB_LINE)).toEqual([]);
    expect(log.feed(CLIENT_LINE)).toEqual(['relay: cap: client 203.0.113.9 is at its 40 connections; refused 1 connection']);
    t = 10_000;
    expect(log.flush()).toEqual(['relay: cap: hub alpha.relay.example is at its 8 connections; refused 2 connections']);
    t = 20_000;
    expect(log.flush()).toEqual([]);
    expect(log.feed(HUB_LINE)).toEqual(['relay: cap: hub alpha.relay.example is at its 8 connections; refused 1 connection']);
  });
});
