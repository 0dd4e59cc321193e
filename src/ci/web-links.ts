/**
 * Links to the CI service's web app (not its API): `<web>/github/<owner>/<repo>/builds/<id>`
 * and `.../jobs/<id>`, as the real service lays them out.
 */
function repoSegments(slug: string): string {
  return slug.split('/').map(encodeURIComponent).join('/');
}

export function repoWebUrl(webUrl: string, slug: string): string {
  return `${webUrl}/github/${repoSegments(slug)}`;
}

export function buildWebUrl(webUrl: string, slug: string, buildId: number): string {
  return `${repoWebUrl(webUrl, slug)}/builds/${buildId}`;
}

export function jobWebUrl(webUrl: string, slug: string, jobId: number): string {
  return `${repoWebUrl(webUrl, slug)}/jobs/${jobId}`;
}

export function profileWebUrl(webUrl: string, login: string): string {
  return `${webUrl}/${encodeURIComponent(login)}`;
}
