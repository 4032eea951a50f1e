// queries.ts: every TanStack Query key and query of the app, and the socket facts that keep them live.
// Flow: REST loads a list once ─► the cache ─► components; socket facts (session:updated,
// machine:updated) patch the same cache entries; a reconnect refetches, so nothing missed survives.
// Invariant: no component builds a query key by hand; they all come from `queryKeys` below.
import { useEffect, useSyncExternalStore } from 'react';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { HubFeatures, Machine, PendingRequest, ProjectRule, Resolution, Session } from '@tether/shared';
import { HubError, hubApi, type ChangesAgainst } from './hub.ts';
import { provideCacheKey } from './phone-cache/key.ts';
import { afterFirstScreen } from './first-screen.ts';
import { createLiveList, newer } from './live-list.ts';
import { getConnectionState, getSocket, onConnectionStateChange, requestHub, type ConnectionState } from './socket.ts';

export const queryKeys = {
  sessions: () => ['sessions'] as const,
  session: (sessionId: string) => ['sessions', sessionId] as const,
  machines: () => ['machines'] as const,
  /** Conversations found on one machine (outside sessions), pages by offset, per search text. */
  outsideAll: (machineId: string) => ['outside', machineId] as const,
  outside: (machineId: string, q: string) => ['outside', machineId, q] as const,
  /** What the hub owner enabled (GET /api/config); fixed for the hub's lifetime. */
  hubConfig: () => ['hub-config'] as const,
  /** Approvals and questions waiting in one session; filled by session:watch, kept by facts. */
  pending: (sessionId: string) => ['pending', sessionId] as const,
  /** Resolutions this tab heard live (newest first), each with the tool name of the request it ended. */
  resolutions: (sessionId: string) => ['resolutions', sessionId] as const,
  /** The session's audit trail from `GET /api/sessions/:id` (loaded when the activity panel opens). */
  audit: (sessionId: string) => ['audit', sessionId] as const,
  /** A session's working directory, read through its runner (never cached by the hub): the
   *  changes against HEAD (pages by cursor), one directory, one file. */
  workspace: (sessionId: string) => ['workspace', sessionId] as const,
  /** Both comparisons (a commit changes each); `changes` one of them: against HEAD, or since the branch's base. */
  changesAll: (sessionId: string) => ['workspace', sessionId, 'changes'] as const,
  changes: (sessionId: string, against: ChangesAgainst) => ['workspace', sessionId, 'changes', against] as const,
  directory: (sessionId: string, path: string) => ['workspace', sessionId, 'dir', path] as const,
  file: (sessionId: string, path: string) => ['workspace', sessionId, 'file', path] as const,
  /** The index's state for the Changes view's stage toggles and Commit/Push (git-actions). */
  gitState: (sessionId: string) => ['workspace', sessionId, 'git'] as const,
  /** The slash commands a session's claude takes (loaded when the composer's text starts with `/`). */
  commands: (sessionId: string) => ['commands', sessionId] as const,
  /** A read-only share link's session (share page; no login). */
  share: (token: string) => ['share', token] as const,
  /** The rules tether proposed from repeated allows (rules:list), kept by `rule:updated` facts. */
  rules: () => ['rules'] as const,
};

/** Rules have no single version: a copy a fact brought during a read stands over the read's. */
const liveRules = createLiveList<ProjectRule>({ id: (rule) => rule.id });

export const rulesQuery = queryOptions({
  queryKey: queryKeys.rules(),
  queryFn: async ({ client }) => {
    const since = liveRules.mark();
    const { rules } = await requestHub('rules:list', {});
    return liveRules.merge({ fetched: rules, cached: client.getQueryData<ProjectRule[]>(queryKeys.rules()), since });
  },
});

/** A rule as a fact says it is now, in the list. */
function upsertRule(client: QueryClient, rule: ProjectRule): void {
  liveRules.heard(rule);
  client.setQueryData<ProjectRule[]>(queryKeys.rules(), (list) => (list ? [rule, ...list.filter((r) => r.id !== rule.id)] : list));
}

export function useRules() {
  return useQuery(rulesQuery);
}

const sessionAt = (session: Session) => session.updatedAt;
/** The list's sessions as facts keep them (a read under way loses none of them: live-list.ts). */
const liveSessions = createLiveList<Session>({ id: (s) => s.id, at: sessionAt });

export const sessionsQuery = queryOptions({
  queryKey: queryKeys.sessions(),
  queryFn: async ({ client }) => {
    let list: Awaited<ReturnType<typeof hubApi.listSessions>>;
    const since = liveSessions.mark();
    try {
      list = await hubApi.listSessions();
    } catch (error) {
      void provideCacheKey(null); // no key this time: a chat waiting for one watches without the cache
      throw error;
    }
    const { sessions, cacheKey } = list;
    // The phone cache's key rides on the list (memory only; lib/phone-cache/key.ts).
    void provideCacheKey(cacheKey);
    return liveSessions.merge({ fetched: sessions, cached: client.getQueryData<Session[]>(queryKeys.sessions()), since });
  },
});

/** A machine's version for `newer`: every online or offline write moves `lastSeenAt`, and a
 *  reconnect's refetch read before a daemon left must not undo its offline (a machine page stayed
 *  "Daemon online" in a rehearsal). */
const machineAt = (machine: Machine) => machine.lastSeenAt;
const liveMachines = createLiveList<Machine>({ id: (m) => m.id, at: machineAt });

export const machinesQuery = queryOptions({
  queryKey: queryKeys.machines(),
  queryFn: async ({ client }) => {
    const since = liveMachines.mark();
    const { machines } = await hubApi.listMachines();
    return liveMachines.merge({ fetched: machines, cached: client.getQueryData<Machine[]>(queryKeys.machines()), since });
  },
});

export function sessionQuery(sessionId: string) {
  return queryOptions({
    queryKey: queryKeys.session(sessionId),
    queryFn: async ({ client }) => newer((await sessionDetail(sessionId)).session, client.getQueryData<Session>(queryKeys.session(sessionId)), sessionAt),
  });
}

/** A 401 already sent the user to login, and 404 will not change on a retry. */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (error instanceof HubError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 3;
}

export function upsertSession(client: QueryClient, session: Session): void {
  liveSessions.heard(session);
  client.setQueryData<Session[]>(queryKeys.sessions(), (list) => {
    if (!list) return list;
    const index = list.findIndex((s) => s.id === session.id);
    if (index === -1) return [session, ...list];
    // Out-of-order facts: never let an older copy overwrite a newer one.
    if ((list[index]?.updatedAt ?? 0) > session.updatedAt) return list;
    const next = list.slice();
    next[index] = session;
    return next;
  });
  client.setQueryData<Session>(queryKeys.session(session.id), (old) =>
    old && old.updatedAt > session.updatedAt ? old : session,
  );
}

export function setPendingRequests(client: QueryClient, sessionId: string, pending: PendingRequest[]): void {
  client.setQueryData<PendingRequest[]>(queryKeys.pending(sessionId), pending);
}

function addPendingRequest(client: QueryClient, request: PendingRequest): void {
  client.setQueryData<PendingRequest[]>(queryKeys.pending(request.sessionId), (list = []) =>
    list.some((p) => p.id === request.id) ? list : [...list, request],
  );
}

/** One line of the audit trail. The hub's audit rows carry no tool name yet; the web adds it for the
 *  requests this tab saw waiting (and keeps a `toolName` the hub may send later). */
export type AuditEntry = Resolution & { toolName?: string };

/** Live resolutions kept per session: enough for the sheet's notice and the panel's newest rows. */
const LIVE_RESOLUTIONS_KEPT = 50;

/** Remembers a resolution (with its request's tool name, while the request is still in the cache). */
function rememberResolution(client: QueryClient, resolution: Resolution): void {
  const request = client.getQueryData<PendingRequest[]>(queryKeys.pending(resolution.sessionId))?.find((p) => p.id === resolution.requestId);
  client.setQueryData<AuditEntry[]>(queryKeys.resolutions(resolution.sessionId), (list = []) => {
    // A request taken to claude's dialog is resolved twice (taken, then decided): keep its tool name.
    const toolName = resolution.toolName ?? request?.toolName ?? list.find((r) => r.requestId === resolution.requestId)?.toolName;
    const entry: AuditEntry = toolName ? { ...resolution, toolName } : resolution;
    return [entry, ...list.filter((r) => r.requestId !== resolution.requestId)].slice(0, LIVE_RESOLUTIONS_KEPT);
  });
}

/** The resolution this tab heard for one request, if any (the approval sheet says who answered). */
export function findResolution(client: QueryClient, sessionId: string, requestId: string): AuditEntry | undefined {
  return client.getQueryData<AuditEntry[]>(queryKeys.resolutions(sessionId))?.find((r) => r.requestId === requestId);
}

export function removePendingRequest(client: QueryClient, resolution: Pick<Resolution, 'sessionId' | 'requestId'>): void {
  client.setQueryData<PendingRequest[]>(queryKeys.pending(resolution.sessionId), (list) =>
    list?.filter((p) => p.id !== resolution.requestId),
  );
}

export function upsertMachine(client: QueryClient, machine: Machine): void {
  liveMachines.heard(machine);
  client.setQueryData<Machine[]>(queryKeys.machines(), (list) => {
    if (!list) return list;
    const index = list.findIndex((m) => m.id === machine.id);
    if (index === -1) return [...list, machine];
    if (newer(machine, list[index], machineAt) !== machine) return list;
    const next = list.slice();
    next[index] = machine;
    return next;
  });
}

/** Mounted once under the login guard: opens the socket and pipes its facts into the cache. */
export function useHubLiveUpdates(): void {
  const client = useQueryClient();
  useEffect(() => {
    const socket = getSocket();
    if (!socket) return;
    const onSession = (session: Session) => upsertSession(client, session);
    const onMachine = (machine: Machine) => upsertMachine(client, machine);
    const onRule = (rule: ProjectRule) => upsertRule(client, rule);
    const onRequested = (request: PendingRequest) => addPendingRequest(client, request);
    const onResolved = (resolution: Resolution) => {
      rememberResolution(client, resolution);
      removePendingRequest(client, resolution);
    };
    // After a drop, facts may have been missed: refetch what the lists show. The page's first
    // connect (a redundant pair then: it closes the gap between the lists' read and the join) waits
    // for the first screen; a refetch that lands later is still newer than the gap it closes.
    const onConnect = () =>
      void afterFirstScreen().then(() => {
        void client.invalidateQueries({ queryKey: queryKeys.sessions() });
        void client.invalidateQueries({ queryKey: queryKeys.machines() });
        void client.invalidateQueries({ queryKey: queryKeys.rules() });
      });
    socket.on('session:updated', onSession);
    socket.on('machine:updated', onMachine);
    socket.on('approval:requested', onRequested);
    socket.on('approval:resolved', onResolved);
    socket.on('rule:updated', onRule);
    socket.on('connect', onConnect);
    return () => {
      socket.off('session:updated', onSession);
      socket.off('machine:updated', onMachine);
      socket.off('approval:requested', onRequested);
      socket.off('approval:resolved', onResolved);
      socket.off('rule:updated', onRule);
      socket.off('connect', onConnect);
    };
  }, [client]);
}

export function useConnectionState(): ConnectionState {
  return useSyncExternalStore(onConnectionStateChange, getConnectionState, getConnectionState);
}

/** Commands change only when the runner restarts or the project's files do: a minute is fresh. */
const COMMANDS_STALE_MS = 60_000;

/** The session's slash commands, fetched only once `enabled` (the composer's text starts with `/`). */
export function useSessionCommands(sessionId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.commands(sessionId),
    queryFn: () => hubApi.sessionCommands(sessionId),
    enabled,
    staleTime: COMMANDS_STALE_MS,
    retry: shouldRetryQuery,
  });
}

export function useSessions() {
  return useQuery(sessionsQuery);
}

export function useMachines() {
  return useQuery(machinesQuery);
}

export function useHubFeatures(): HubFeatures | undefined {
  return useQuery({ queryKey: queryKeys.hubConfig(), queryFn: () => hubApi.getConfig(), staleTime: Infinity }).data;
}

/** One session, seeded from the (live) list so that opening it from the list shows it at once. */
export function useSession(sessionId: string) {
  const client = useQueryClient();
  return useQuery({
    ...sessionQuery(sessionId),
    initialData: () => client.getQueryData<Session[]>(queryKeys.sessions())?.find((s) => s.id === sessionId),
    initialDataUpdatedAt: () => client.getQueryState(queryKeys.sessions())?.dataUpdatedAt,
  });
}

/** One session's REST read shared by the queries that open together (the session, its waiting
 *  requests): one request to the hub while one is in flight, not one per query. */
const sessionReads = new Map<string, ReturnType<typeof hubApi.getSession>>();
function sessionDetail(sessionId: string): ReturnType<typeof hubApi.getSession> {
  const inFlight = sessionReads.get(sessionId);
  if (inFlight) return inFlight;
  const read = hubApi.getSession(sessionId).finally(() => sessionReads.delete(sessionId));
  sessionReads.set(sessionId, read);
  return read;
}

/** A fetched pending list, with the socket facts that arrived while it was on its way: a request
 *  raised meanwhile (`approval:requested` reached the cache first) is newer than the fetch and
 *  stays, unless this tab has since heard it resolved. The fetch alone used to overwrite it, and a
 *  request raised just as the session opened stayed hidden until the next watch. */
export function mergePending(options: { fetched: PendingRequest[]; cached: PendingRequest[]; resolvedIds: ReadonlySet<string> }): PendingRequest[] {
  const fetchedIds = new Set(options.fetched.map((p) => p.id));
  return [...options.fetched, ...options.cached.filter((p) => !fetchedIds.has(p.id))].filter((p) => !options.resolvedIds.has(p.id));
}

/** The approvals and questions waiting in one session (empty until the session is watched). */
export function usePendingRequests(sessionId: string): PendingRequest[] {
  const client = useQueryClient();
  const { data } = useQuery({
    queryKey: queryKeys.pending(sessionId),
    queryFn: async () => {
      const fetched = (await sessionDetail(sessionId)).pending;
      const cached = client.getQueryData<PendingRequest[]>(queryKeys.pending(sessionId)) ?? [];
      const resolvedIds = new Set((client.getQueryData<AuditEntry[]>(queryKeys.resolutions(sessionId)) ?? []).map((r) => r.requestId));
      return mergePending({ fetched, cached, resolvedIds });
    },
    staleTime: Infinity, // kept fresh by socket facts and every (re)watch
  });
  return data ?? [];
}
