// hands-free.ts: while hands-free is on, new assistant replies and new requests are read aloud
// (speechSynthesis), and a single-choice question is answered by saying an option: heard with the
// dictation engine, matched to a label (spoken.ts), sent as the approval sheet would send it.
//
//   message:added (this session) ─► replySpeech ─► speak
//   pending (query cache) new id ─► requestSpeech ─► speak ─(a voice question)─► listenOnce ─► matchOption ─► approval:answer
import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ChatMessage, PendingRequest, Question } from '@tether/shared';
import { buildQuestionAnswers } from '@tether/shared/wire';
import { useAgentName } from '../../lib/agent-name.ts';
import { removePendingRequest, usePendingRequests } from '../../lib/queries.ts';
import { getSocket, requestHub } from '../../lib/socket.ts';
import { listenOnce } from './engines.ts';
import { matchOption, replySpeech, requestSpeech, voiceQuestion } from './spoken.ts';
import type { VoiceEngine } from './voice-prefs.ts';

/** How long an answer is listened for: an option's name, said after the question ends. */
const ANSWER_LISTEN_MS = 4000;

export function hasSpeechSynthesis(): boolean {
  return typeof window !== 'undefined' && 'speechSynthesis' in window && typeof SpeechSynthesisUtterance !== 'undefined';
}

function speak(text: string, onEnd?: () => void): void {
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = navigator.language || 'en-US';
  if (onEnd) {
    utterance.onend = () => onEnd();
    utterance.onerror = () => onEnd();
  }
  window.speechSynthesis.speak(utterance);
}

export function useHandsFree(options: { sessionId: string; on: boolean; engine: VoiceEngine | null }): { note: string | null } {
  const { sessionId, on, engine } = options;
  const agent = useAgentName();
  const pending = usePendingRequests(sessionId);
  const client = useQueryClient();
  const [note, setNote] = useState<string | null>(null);
  const seen = useRef<Set<string> | null>(null);

  useEffect(() => {
    if (!on || !hasSpeechSynthesis()) return;
    const socket = getSocket();
    if (!socket) return;
    // Only what arrives live while the switch is on: a (re)watch's catch-up comes in its ack.
    const onMessages = (payload: { sessionId: string; messages: ChatMessage[] }) => {
      if (payload.sessionId !== sessionId) return;
      for (const message of payload.messages) {
        const words = replySpeech(message);
        if (words) speak(words);
      }
    };
    socket.on('message:added', onMessages);
    return () => {
      socket.off('message:added', onMessages);
      window.speechSynthesis.cancel();
    };
  }, [on, sessionId]);

  useEffect(() => {
    if (!on || !hasSpeechSynthesis()) {
      seen.current = null;
      return;
    }
    // Requests already open when the switch was turned on are on screen; only new ones are read.
    if (seen.current === null) {
      seen.current = new Set(pending.map((p) => p.id));
      return;
    }
    for (const request of pending) {
      if (seen.current.has(request.id)) continue;
      seen.current.add(request.id);
      const question = voiceQuestion(request);
      const answer = question && engine ? () => void answerByVoice({ request, question, engine }) : undefined;
      speak(requestSpeech(request, agent), answer);
    }
  });

  async function answerByVoice(input: { request: PendingRequest; question: Question; engine: VoiceEngine }) {
    const labels = input.question.options.map((o) => o.label);
    setNote(`Listening for your answer: ${labels.join(', ')}`);
    try {
      const label = matchOption(await listenOnce(input.engine, ANSWER_LISTEN_MS), labels);
      if (!label) {
        speak('I did not catch an option. Answer on screen.');
        return;
      }
      const answers = buildQuestionAnswers({ questions: [input.question], picks: [{ labels: [label] }] });
      await requestHub('approval:answer', { requestId: input.request.id, answer: { decision: 'allow', answers } });
      removePendingRequest(client, { sessionId, requestId: input.request.id });
      speak(`Answered ${label}.`);
    } catch {
      // Answered on screen meanwhile, or the microphone failed: the sheet still shows what is open.
      speak('Answer on screen.');
    } finally {
      setNote(null);
    }
  }

  return { note };
}
