/**
 * `text` parsed as JSON, or undefined when it is not JSON. For text from outside (stored records,
 * button values, private_metadata) that a zod schema checks next: a parse error and a failed check
 * both mean "not what we wrote".
 */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
