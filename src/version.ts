import { readFileSync } from 'node:fs';

/** `<package name>/<version>` for the CI service's User-Agent; read from package.json at start. */
export function userAgent(): string {
  // src/ and dist/ both sit one level below package.json.
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    name: string;
    version: string;
  };
  return `${pkg.name}/${pkg.version}`;
}
