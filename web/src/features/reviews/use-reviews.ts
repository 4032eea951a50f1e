// use-reviews.ts: a session's review cards, kept in step with the hub: review:list on open and on
// every (re)connect, then each review:updated for this session (the hub sends them to the tabs
// watching it; the chat's own watch joined that room). Nothing is cached across sessions.
import { useEffect, useState } from 'react';
import type { Review } from '@tether/shared';
import { getSocket, requestHub } from '../../lib/socket.ts';

export function upsertReview(list: readonly Review[], review: Review): Review[] {
  const at = list.findIndex((r) => r.id === review.id);
  if (at < 0) return [...list, review].sort((a, b) => a.createdAt - b.createdAt);
  // The newer copy wins (a list answer may cross a fresher update).
  if (list[at]!.updatedAt > review.updatedAt) return [...list];
  return list.map((r, i) => (i === at ? review : r));
}

export function useReviews(sessionId: string): { reviews: Review[]; error: string | null } {
  const [reviews, setReviews] = useState<Review[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const socket = getSocket();
    if (!socket) return;
    let alive = true;
    const load = () =>
      requestHub('review:list', { sessionId })
        .then((ack) => {
          if (!alive) return;
          setError(null);
          setReviews((current) => ack.reviews.reduce(upsertReview, current));
        })
        .catch((e: unknown) => alive && setError(e instanceof Error ? e.message : String(e)));
    const onUpdated = (review: Review) => {
      if (review.parentId === sessionId) setReviews((current) => upsertReview(current, review));
    };
    socket.on('review:updated', onUpdated);
    socket.on('connect', load);
    if (socket.connected) void load();
    return () => {
      alive = false;
      socket.off('review:updated', onUpdated);
      socket.off('connect', load);
    };
  }, [sessionId]);
  return { reviews, error };
}
