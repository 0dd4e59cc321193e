import type { CiSession } from './client.js';
import { type LintWarning, lintSchema } from './schemas.js';

/** 4.19 POST /lint with the configuration text as `content`. */
export async function lintConfig(ci: CiSession, content: string): Promise<LintWarning[]> {
  const answer = await ci.json({ method: 'POST', path: '/lint', body: { json: { content } } }, lintSchema);
  return answer.lint.warnings;
}

/** 4.19 PUT /lint with the raw YAML as the body (Content-Type text/yaml). */
export async function lintConfigYaml(ci: CiSession, yaml: string): Promise<LintWarning[]> {
  const answer = await ci.json(
    { method: 'PUT', path: '/lint', body: { raw: yaml, contentType: 'text/yaml' } },
    lintSchema,
  );
  return answer.lint.warnings;
}
