// phone-prompt.ts (harness): a turn as every agent's chat test checks it (claude in runner-chat,
// Codex and Gemini in the journey, agent-journey.test.ts). A prompt sent from the phone: the hub says it was
// delivered, the agent's reply reaches the chat, the chat keeps the prompt as sent, and the desk
// shows the reply too. A prompt typed at the desk: it reaches the chat before the reply.
import { expect } from 'vitest';
import type { ChatMessage } from '@tether/shared';
import { chatText, type SessionWatch } from './runner.ts';

/** `shows`: where the reply is seen besides the chat (the desk's screen, for a PTY session). */
export async function expectPromptAnswered(o: { phone: SessionWatch; shows(text: string): Promise<unknown>; prompt: string; reply: string }): Promise<void> {
  const { phone } = o;
  const sent = await phone.send(o.prompt);
  expect(sent.ok).toBe(true);
  await phone.waitFor(() => phone.prompts().get(sent.promptId)?.status === 'delivered', { what: 'prompt delivered' });
  await phone.waitFor(() => phone.messages().find((m) => m.role === 'assistant' && chatText(m).includes(o.reply)), { what: 'reply' });
  const user = phone.messages().find((m) => m.role === 'user' && m.promptId === sent.promptId);
  expect(user && chatText(user)).toBe(o.prompt);
  await o.shows(o.reply);
}

/** Once the desk typed `prompt` and Enter: the reply holding `reply` reaches the chat after the
 *  prompt; returns both messages. */
export async function expectDeskTurnInChat(phone: SessionWatch, o: { prompt: string; reply: string }): Promise<{ user: ChatMessage; reply: ChatMessage }> {
  const reply = await phone.waitFor(() => phone.messages().find((m) => m.role === 'assistant' && chatText(m).includes(o.reply)), { what: 'assistant reply' });
  const user = phone.messages().find((m) => m.role === 'user' && chatText(m) === o.prompt);
  expect(user).toBeDefined();
  expect(user!.seq).toBeLessThan(reply.seq);
  return { user: user!, reply };
}
