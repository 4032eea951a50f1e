// index.ts: the transcript room — tailing claude's JSONL by byte offset and turning lines into chat.
// Imports only shared. Re-exports only.
export { parseTranscriptLine, parseTranscriptLines, type TranscriptParseContext } from './parse.ts';
export { TRANSCRIPT_POLL_MS, tailTranscript, type TailTranscriptOptions, type TranscriptTail } from './tail.ts';
export { subagentDirFor, tailSubagents, type SubagentTails, type TailSubagentsOptions } from './subagents.ts';
