/** A parsed JSON object (not an array, not null): what recorded documents are read as. */
export type Json = Record<string, unknown>;

/** Whether a parsed JSON value is an object (not an array, not null). */
export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
