import { repoWebUrl } from '../../ci/web-links.js';
import type { Deployment } from '../../config.js';
import { link } from '../text/escape.js';

/**
 * Where a message's builds and repositories live: the deployment, its name in sentences and the
 * base URL of its web app. Every view that names or links a deployment takes one; handlers get it
 * from `siteOf` (deployments.ts) or with the acting user's session (`actAs`).
 */
export interface Site {
  deployment: Deployment;
  /** "travis-ci.com" */
  label: string;
  /** The deployment's web app, e.g. https://app.travis-ci.com */
  webUrl: string;
}

/** `owner/name`, linked to the repository's page on the web app. */
export function repoLink(site: Pick<Site, 'webUrl'>, slug: string): string {
  return link(repoWebUrl(site.webUrl, slug), slug);
}
