// spoken.ts: what hands-free says, and what a spoken answer picks. Pure: the words for a new reply
// or request, and which of a question's options a sentence names.
import type { ChatMessage, PendingRequest, Question } from '@tether/shared';

/** Longest text read aloud at once; a long reply is cut and says so. */
export const MAX_SPOKEN_CHARS = 1200;

/** Markdown read as prose: code blocks named, not spelled out; links by their text; marks dropped. */
export function plainSpeech(markdown: string): string {
  const text = markdown
    .replace(/```[\s\S]*?(```|$)/g, ' (code) ')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_~|]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > MAX_SPOKEN_CHARS ? `${text.slice(0, MAX_SPOKEN_CHARS).replace(/\s+\S*$/, '')}… (the rest is on screen)` : text;
}

/** The words of a new assistant reply in the main thread; null when it has none (tool calls only). */
export function replySpeech(message: ChatMessage): string | null {
  if (message.role !== 'assistant' || message.sidechain) return null;
  const text = message.content
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('\n\n');
  const spoken = plainSpeech(text);
  return spoken ? spoken : null;
}

/** A question hands-free can take by voice: one question, one choice. */
export function voiceQuestion(request: PendingRequest): Question | null {
  if (request.kind !== 'question') return null;
  const questions = (request.toolInput as { questions?: Question[] }).questions;
  const only = questions?.length === 1 ? questions[0] : undefined;
  return only && !only.multiSelect && Array.isArray(only.options) && only.options.length > 0 ? only : null;
}

function listLabels(labels: string[]): string {
  if (labels.length <= 1) return labels.join('');
  return `${labels.slice(0, -1).join(', ')}, or ${labels.at(-1)}`;
}

/** What a new request says aloud; a voice question ends by asking for an option. */
export function requestSpeech(request: PendingRequest, agent: string): string {
  const question = voiceQuestion(request);
  if (question) return `${agent} asks: ${plainSpeech(question.question)} Say ${listLabels(question.options.map((o) => o.label))}.`;
  switch (request.kind) {
    case 'question':
      return `${agent} has questions for you. Answer them on screen.`;
    case 'plan':
      return `${agent} has a plan ready for review.`;
    case 'permission':
      return `${agent} asks to use ${request.toolName}.`;
    default:
      return `${agent} is waiting for your choice.`;
  }
}

const ORDINALS = [
  ['1', 'one', 'first'],
  ['2', 'two', 'second'],
  ['3', 'three', 'third'],
  ['4', 'four', 'fourth'],
];

const normal = (text: string) =>
  ` ${text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;

/** The option a sentence names: a label said within it (the longest that fits, so "Postgres 16"
 *  wins over "Postgres"), else "option two" / "the second one". Null when it names none or two. */
export function matchOption(spoken: string, labels: readonly string[]): string | null {
  const said = normal(spoken);
  const named = labels.filter((label) => normal(label).trim() && said.includes(normal(label)));
  if (named.length > 0) {
    const longest = [...named].sort((a, b) => normal(b).length - normal(a).length);
    const top = longest[0]!;
    // Two labels said that do not contain each other: ambiguous.
    return longest.slice(1).every((other) => normal(top).includes(normal(other))) ? top : null;
  }
  // "the second one": the "one" is not option one.
  const counted = said.replace(/ (first|second|third|fourth) one /g, ' $1 ');
  const numbered = ORDINALS.map((words, i) => (words.some((w) => counted.includes(` ${w} `)) ? i : -1)).filter((i) => i >= 0 && i < labels.length);
  return numbered.length === 1 ? labels[numbered[0]!]! : null;
}
