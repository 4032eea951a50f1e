// index.ts: the transcript room — tailing an agent's JSONL by byte offset (and its sidechains).
// Imports only shared. Re-exports only. Each agent reads its own lines (agents/<agent>/).
export { TRANSCRIPT_POLL_MS, tailTranscript, type TailTranscriptOptions, type TranscriptTail } from './tail.ts';
export { subagentDirFor, tailSubagents, type SubagentTails, type TailSubagentsOptions } from './subagents.ts';
