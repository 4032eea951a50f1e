// prompt.ts: one turn as ACP content blocks (session/prompt's `prompt`): the person's files first,
// as the runner hands them over (agents/headless-transport.ts, files: 'blocks'), then the text.
//
//   image ─► {type: image, mimeType, data}       text file ─► {type: text, text: "<name>:\n<its text>"}
//   PDF   ─► {type: resource, resource: {uri, mimeType, blob}}       text ─► {type: text, text}
//
// A text file goes as text, not as an embedded resource: Gemini CLI (0.58.0, 0.61.0) folds a prompt
// with any resource into one text part and drops its images. A PDF has no text form, so it is a
// resource (ACP's `embeddedContext` prompt capability; an agent without it gets the PDF named only),
// and with Gemini a photo sent with a PDF in one prompt is lost (docs/decisions/agents.md).
import type { ContentBlock } from '../../attachments/attachments.ts';

type Json = Record<string, unknown>;

/** What the agent said it takes (initialize's agentCapabilities.promptCapabilities). */
export type PromptCapabilities = { image: boolean; embeddedContext: boolean };

/** A file's URI in a resource block: ACP wants one; the phone's upload has only a name. */
const uriOf = (title: string | undefined, index: number) => `tether-attachment:///${index + 1}/${encodeURIComponent(title ?? 'file')}`;

export function acpPrompt(content: string | ContentBlock[], can: PromptCapabilities): Json[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.flatMap((block, index): Json[] => {
    if (block.type === 'text') return [{ type: 'text', text: block.text }];
    if (block.type === 'image') {
      return can.image ? [{ type: 'image', mimeType: block.source.media_type, data: block.source.data }] : [{ type: 'text', text: '[an image the agent cannot take was left out]' }];
    }
    const name = block.title ?? 'a file';
    if (block.source.type === 'text') return [{ type: 'text', text: `${name}:\n${block.source.data}` }];
    if (!can.embeddedContext) return [{ type: 'text', text: `[${name}: a PDF the agent cannot take was left out]` }];
    return [{ type: 'resource', resource: { uri: uriOf(block.title, index), mimeType: 'application/pdf', blob: block.source.data } }];
  });
}
