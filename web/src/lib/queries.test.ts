import { describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { Machine, PendingRequest, Session } from '@tether/shared';
import { hubApi } from './hub.ts';
import { machinesQuery, mergePending, queryKeys, sessionQuery, sessionsQuery, upsertMachine, upsertSession } from './queries.ts';
import { testSession } from '../testing/test-records.ts';

const request = (id: string): PendingRequest => ({
  id,
  sessionId: '11111111-1111-4111-8111-111111111111',
  kind: 'permission',
  toolName: 'Bash',
  toolInput: { command: 'ls' },
  toolUseId: null,
  createdAt: 1,
});

describe('pending requests fetched while socket facts arrive', () => {
  it('keeps a request raised during the fetch, drops one heard resolved, keeps the fetched ones', () => {
    const merged = mergePending({
      fetched: [request('a'), request('b')],
      cached: [request('b'), request('c'), request('d')],
      resolvedIds: new Set(['a', 'd']),
    });
    expect(merged.map((p) => p.id)).toEqual(['b', 'c']);
  });

  it('is the fetched list when nothing arrived meanwhile', () => {
    expect(mergePending({ fetched: [request('a')], cached: [], resolvedIds: new Set() }).map((p) => p.id)).toEqual(['a']);
  });
});

describe('a refetch racing a session fact', () => {
  const session = (status: Session['status'], updatedAt: number): Session =>
    testSession({ id: '22222222-2222-4222-8222-222222222222', status, createdAt: 1, updatedAt, endedAt: status === 'ended' ? updatedAt : null });

  it('keeps the ended session a fact brought while the list was being read (the reconnect refetch)', async () => {
    const client = new QueryClient();
    let respond: (value: { sessions: Session[] }) => void = () => {};
    vi.spyOn(hubApi, 'listSessions').mockReturnValue(new Promise((resolve) => (respond = resolve)));
    client.setQueryData(queryKeys.sessions(), [session('idle', 1)]);
    const fetching = client.fetchQuery(sessionsQuery);
    upsertSession(client, session('ended', 2)); // session:updated lands before the response
    respond({ sessions: [session('idle', 1)] });
    expect((await fetching).map((s) => s.status)).toEqual(['ended']);
    vi.restoreAllMocks();
  });

  it('keeps a session registered while the list was being read (it was not in the answer)', async () => {
    const client = new QueryClient();
    let respond: (value: { sessions: Session[] }) => void = () => {};
    vi.spyOn(hubApi, 'listSessions').mockReturnValue(new Promise((resolve) => (respond = resolve)));
    client.setQueryData(queryKeys.sessions(), [] as Session[]);
    const fetching = client.fetchQuery(sessionsQuery);
    const registered = testSession({ id: '44444444-4444-4444-8444-444444444444', createdAt: 3, updatedAt: 3 });
    upsertSession(client, registered); // session:updated for the new session lands before the response
    respond({ sessions: [] });
    expect((await fetching).map((s) => s.id)).toEqual([registered.id]);
    vi.restoreAllMocks();
  });

  it('takes the fetched copy when it is the newer one', async () => {
    const client = new QueryClient();
    vi.spyOn(hubApi, 'getSession').mockResolvedValue({ session: session('thinking', 5) } as Awaited<ReturnType<typeof hubApi.getSession>>);
    client.setQueryData(queryKeys.session(session('idle', 1).id), session('idle', 1));
    expect((await client.fetchQuery(sessionQuery(session('idle', 1).id))).status).toBe('thinking');
    vi.restoreAllMocks();
  });
});

describe('a refetch racing a machine fact', () => {
  const machine = (online: boolean, lastSeenAt: number): Machine => ({
    id: '33333333-3333-4333-8333-333333333333', name: 'dev-box', os: 'linux', user: 'dev', home: '/home/dev', shell: false, agents: [], capabilities: {}, outside: false, online, lastSeenAt,
  }) as Machine;

  it('keeps the offline a fact brought while the list was being read (the reconnect refetch)', async () => {
    const client = new QueryClient();
    let respond: (value: { machines: Machine[] }) => void = () => {};
    vi.spyOn(hubApi, 'listMachines').mockReturnValue(new Promise((resolve) => (respond = resolve)));
    client.setQueryData(queryKeys.machines(), [machine(true, 1)]);
    const fetching = client.fetchQuery(machinesQuery);
    upsertMachine(client, machine(false, 2)); // machine:updated lands before the response
    respond({ machines: [machine(true, 1)] });
    expect((await fetching).map((m) => m.online)).toEqual([false]);
    vi.restoreAllMocks();
  });

  it('keeps a machine first heard while the list was being read', async () => {
    const client = new QueryClient();
    let respond: (value: { machines: Machine[] }) => void = () => {};
    vi.spyOn(hubApi, 'listMachines').mockReturnValue(new Promise((resolve) => (respond = resolve)));
    client.setQueryData(queryKeys.machines(), [] as Machine[]);
    const fetching = client.fetchQuery(machinesQuery);
    upsertMachine(client, machine(true, 4)); // a daemon came online during the read
    respond({ machines: [] });
    expect((await fetching).map((m) => m.online)).toEqual([true]);
    vi.restoreAllMocks();
  });

  it('takes the newer copy, fetched or heard, and never an older fact', async () => {
    const client = new QueryClient();
    vi.spyOn(hubApi, 'listMachines').mockResolvedValue({ machines: [machine(true, 3)] });
    client.setQueryData(queryKeys.machines(), [machine(false, 2)]);
    expect((await client.fetchQuery(machinesQuery)).map((m) => m.online)).toEqual([true]);
    upsertMachine(client, machine(false, 1));
    expect(client.getQueryData<Machine[]>(queryKeys.machines())!.map((m) => m.online)).toEqual([true]);
    vi.restoreAllMocks();
  });
});
