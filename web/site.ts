/**
 * What the built site needs from whoever serves it, in one place: the local server
 * (tools/dev/src/static-site.ts) and the CloudFront distribution (infra/src/site.ts) send these same
 * headers and map a page path to its file by the same rule, so the browser tests run the pages under
 * the policy production enforces.
 */

/**
 * No inline script, no eval, no third-party origin: every script and style is a file of the build. The
 * API is same-origin (`/v1` beside the pages, locally and behind CloudFront), so `connect-src 'self'`;
 * the one other origin a deployment may add is its live channel's (`liveBrowserUrl`: IoT Core's
 * WebSocket endpoint, where the game client's MQTT connection goes).
 */
export function contentSecurityPolicy(liveBrowserUrl?: string): string {
  const live = liveBrowserUrl?.startsWith('wss://') ? ` ${new URL(liveBrowserUrl).origin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${live}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy of a site whose live channel is on its own origin (the dev stack's `/live`). */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** Sent with every page and asset (CloudFront adds HSTS on top: the local server speaks plain HTTP). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** The pages (Vite entries): `/` the table, `/verify` the verifier, `/regulator` the viewer, `/play` the game client. */
export const PAGES = ['index.html', 'verify/index.html', 'regulator/index.html', 'play/index.html'] as const;

/**
 * The file a request path names: a path ending in `/` or whose last segment has no dot is a page
 * folder (`/verify` -> `verify/index.html`); anything else is a file. The CloudFront function in
 * infra/src/site.ts applies the same rule (its test runs both on the same paths).
 */
export function siteFile(pathname: string): string {
  const rel = pathname.replace(/^\/+/, '');
  if (rel === '' || rel.endsWith('/')) return `${rel}index.html`;
  const last = rel.slice(rel.lastIndexOf('/') + 1);
  return last.includes('.') ? rel : `${rel}/index.html`;
}
