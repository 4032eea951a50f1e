// cron.ts: standard 5-field cron (minute hour day-of-month month day-of-week) read in a time zone,
// for schedules (schedules.ts). Written here rather than taken from a library: the hub, the phone's
// preview and `tether schedule` must agree to the minute, and the rules below (DST, the 5-minute
// floor, "never fires") are tether's own (docs/decisions/schedules.md).
//
// Fields: `*`, `n`, `a-b`, `*/s`, `a-b/s`, `a/s`, comma lists; months and weekdays also by their
// English three-letter names; weekday 0 and 7 are Sunday. When both day-of-month and day-of-week are
// restricted, a day matching either fires (Vixie cron's rule).
// Daylight saving: runs are wall-clock times in the zone. A wall time the clocks skip (spring
// forward) does not run that day; a wall time that happens twice (fall back) runs once, at its first
// occurrence. So the gap between two runs never shrinks below the wall-clock gap.
// Pure: no clock is read here; every function takes the instant it counts from.

export const CRON_FIELD_NAMES = ['minute', 'hour', 'day of month', 'month', 'day of week'] as const;
/** How far ahead a next run is looked for: long enough for 29 February on a given weekday. */
const SEARCH_DAYS = 366 * 28;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
/** The longest each month ever gets (February: 29). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

type Range = { min: number; max: number; names?: readonly string[]; nameBase?: number };
const RANGES: readonly Range[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS, nameBase: 1 },
  { min: 0, max: 7, names: WEEKDAYS, nameBase: 0 },
];

export type Cron = {
  minutes: number[];
  hours: number[];
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** The field was `*` (or `*\/1`): day-of-month and day-of-week combine by this. */
  anyDay: boolean;
  anyWeekday: boolean;
};

export class CronError extends Error {}

function number(text: string, field: number): number {
  const range = RANGES[field]!;
  const named = range.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + (range.nameBase ?? 0);
  if (!/^\d{1,2}$/.test(text)) throw new CronError(`${CRON_FIELD_NAMES[field]}: "${text}" is not a number${range.names ? ' or a name' : ''}`);
  const value = Number(text);
  if (value < range.min || value > range.max) throw new CronError(`${CRON_FIELD_NAMES[field]}: ${value} is outside ${range.min}–${range.max}`);
  return value;
}

function parseField(text: string, field: number): { values: Set<number>; any: boolean } {
  const range = RANGES[field]!;
  const values = new Set<number>();
  let any = false;
  for (const part of text.split(',')) {
    const [span, stepText, extra] = part.split('/');
    if (extra !== undefined || span === undefined || span === '') throw new CronError(`${CRON_FIELD_NAMES[field]}: "${part}" is not a value, range or step`);
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1 || !/^\d+$/.test(stepText ?? '1')) throw new CronError(`${CRON_FIELD_NAMES[field]}: step "${stepText}" must be a whole number from 1`);
    let from: number;
    let to: number;
    if (span === '*') {
      from = range.min;
      to = range.max;
      if (step === 1) any = true;
    } else if (span.includes('-')) {
      const [a, b] = span.split('-');
      from = number(a ?? '', field);
      to = number(b ?? '', field);
      if (to < from) throw new CronError(`${CRON_FIELD_NAMES[field]}: range ${span} runs backwards`);
    } else {
      from = number(span, field);
      to = stepText === undefined ? from : range.max;
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return { values, any };
}

/** Reads an expression; throws CronError with what is wrong in words. */
export function parseCron(expression: string): Cron {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 || fields[0] === '') {
    throw new CronError(`a cron expression has 5 fields (minute hour day-of-month month day-of-week), this one has ${fields[0] === '' ? 0 : fields.length}`);
  }
  const parsed = fields.map((f, i) => parseField(f, i));
  const weekdays = new Set([...parsed[4]!.values].map((d) => d % 7));
  const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
  return {
    minutes: sorted(parsed[0]!.values),
    hours: sorted(parsed[1]!.values),
    days: parsed[2]!.values,
    months: parsed[3]!.values,
    weekdays,
    anyDay: parsed[2]!.any,
    anyWeekday: parsed[4]!.any,
  };
}

function dayMatches(cron: Cron, o: { day: number; weekday: number }): boolean {
  const byDay = cron.days.has(o.day);
  const byWeekday = cron.weekdays.has(o.weekday);
  if (cron.anyDay || cron.anyWeekday) return byDay && byWeekday;
  return byDay || byWeekday;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether the runtime knows this IANA time zone name. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock in `timeZone` at `instant`, as if it were UTC (milliseconds). */
export function wallClock(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatterOf(timeZone).formatToParts(new Date(instant))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

const offsetAt = (instant: number, timeZone: string) => wallClock(instant, timeZone) - Math.floor(instant / 1000) * 1000;

/** The first instant the zone's clocks show `wall`, or null when they skip it (spring forward). */
export function firstInstant(wall: number, timeZone: string): number | null {
  const candidates = [...new Set([offsetAt(wall - DAY_MS, timeZone), offsetAt(wall + DAY_MS, timeZone)])]
    .map((offset) => wall - offset)
    .filter((instant) => wallClock(instant, timeZone) === wall)
    .sort((a, b) => a - b);
  return candidates[0] ?? null;
}

/** The first run strictly after `after`, or null when none comes within SEARCH_DAYS. */
export function nextRun(cron: Cron, o: { after: number; timeZone: string }): number | null {
  const startWall = wallClock(o.after, o.timeZone);
  const start = new Date(startWall);
  const firstDay = Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate());
  for (let i = 0; i < SEARCH_DAYS; i += 1) {
    const day = new Date(firstDay + i * DAY_MS);
    if (!cron.months.has(day.getUTCMonth() + 1)) continue;
    if (!dayMatches(cron, { day: day.getUTCDate(), weekday: day.getUTCDay() })) continue;
    for (const hour of cron.hours) {
      for (const minute of cron.minutes) {
        const wall = day.getTime() + hour * 3_600_000 + minute * MINUTE_MS;
        // Wall times well before the start cannot be after it (a fall-back repeats an hour at most).
        if (wall < startWall - 3 * 3_600_000) continue;
        const instant = firstInstant(wall, o.timeZone);
        if (instant !== null && instant > o.after) return instant;
      }
    }
  }
  return null;
}

/** The next `count` runs after `after` (fewer when it stops firing). */
export function nextRuns(cron: Cron, o: { after: number; timeZone: string; count: number }): number[] {
  const runs: number[] = [];
  let after = o.after;
  while (runs.length < o.count) {
    const next = nextRun(cron, { after, timeZone: o.timeZone });
    if (next === null) break;
    runs.push(next);
    after = next;
  }
  return runs;
}

const clock = (minuteOfDay: number) => `${String(Math.floor(minuteOfDay / 60)).padStart(2, '0')}:${String(minuteOfDay % 60).padStart(2, '0')}`;

/** Why the expression can never fire (a day no month of it has), or null. Only day-of-month can
 *  be impossible, and only while day-of-week does not widen it. */
export function neverFires(cron: Cron): string | null {
  if (cron.anyDay || !cron.anyWeekday) return null;
  for (const month of cron.months) for (const day of cron.days) if (day <= MONTH_DAYS[month - 1]!) return null;
  const months = [...cron.months].sort((a, b) => a - b).map((m) => MONTHS[m - 1]);
  return `it never fires: no day ${[...cron.days].sort((a, b) => a - b).join(', ')} in ${months.join(', ')}`;
}

/** The smallest gap between two runs on the wall clock, in minutes, and the two times it lies
 *  between (midnight included: the last run of a day and the first of the next). */
export function shortestGap(cron: Cron): { minutes: number; from: string; to: string } {
  const times = cron.hours.flatMap((h) => cron.minutes.map((m) => h * 60 + m));
  const last = times[times.length - 1]!;
  const gaps = times.map((t, i) => (i === 0 ? { minutes: 1440 - last + t, from: clock(last), to: clock(t) } : { minutes: t - times[i - 1]!, from: clock(times[i - 1]!), to: clock(t) }));
  // The day's own gaps first: the midnight one names the pair only when it is strictly shorter.
  return [...gaps.slice(1), gaps[0]!].reduce((best, gap) => (gap.minutes < best.minutes ? gap : best));
}
