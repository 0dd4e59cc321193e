/** Response headers as undici's `request()` gives them: a repeated header is an array. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** One header as fetch's `Headers` reads it: repeated values joined with ", ". */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Every header that has a value, each as `headerValue` reads it. */
export function flatHeaders(headers: ResponseHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const text = headerValue(value);
    if (text !== undefined) flat[name] = text;
  }
  return flat;
}
