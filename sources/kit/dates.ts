/** Dates as sites write them, read into the ISO forms records carry. */

/** A date that starts `YYYY-MM-DD`, as that day's midnight UTC in ISO form; undefined for any other text. */
export function isoDay(text: string | null | undefined): string | undefined {
  const day = new Date(`${/^\d{4}-\d{2}-\d{2}/.exec(text ?? "")?.[0]}T00:00:00Z`);
  return Number.isNaN(day.getTime()) ? undefined : day.toISOString();
}

/** A date and time JavaScript can read, in ISO form (UTC); undefined for any other text. */
export function isoTime(text: string | null | undefined): string | undefined {
  const time = new Date(text ?? "");
  return text && !Number.isNaN(time.getTime()) ? time.toISOString() : undefined;
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** An English month name, in any case, as its two-digit number (`April` → `04`); undefined for any other word. */
export function monthNumber(name: string): string | undefined {
  const i = MONTHS.indexOf(name.toLowerCase());
  return i < 0 ? undefined : String(i + 1).padStart(2, "0");
}
