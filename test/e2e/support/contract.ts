/**
 * Holds every e2e request and answer to the served OpenAPI document (ajv, JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1), as Prism would on live traffic:
 * - the answer: its status is one the operation declares, its content type and body match that
 *   status's schema (a problem's `code` within the codes listed for it), its required headers are there;
 * - the request: one the document calls valid must not be refused as invalid input (400
 *   VALIDATION_FAILED, 415), and one it calls invalid must not succeed.
 * A breach throws, naming the route and the field.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked as plain JSON
type Json = any;

export interface Exchange {
  method: 'GET' | 'POST';
  /** The request path with its query string. */
  url: string;
  headers: Record<string, string>;
  body: unknown;
  status: number;
  responseHeaders: Headers;
  contentType: string;
  responseBody: unknown;
}

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export class ContractValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly templates: { method: string; template: string; pattern: RegExp; names: string[] }[] = [];

  constructor(private readonly doc: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema(doc, 'openapi.json');
    for (const [template, item] of Object.entries<Json>(doc.paths)) {
      const names: string[] = [];
      const source = template.replace(/\{(\w+)\}/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      for (const method of Object.keys(item)) {
        this.templates.push({
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${source}$`),
          names,
        });
      }
    }
  }

  private validator(ref: string): ValidateFunction {
    let v = this.compiled.get(ref);
    if (!v) {
      v = this.ajv.compile({ $ref: `openapi.json#${ref}` });
      this.compiled.set(ref, v);
    }
    return v;
  }

  /** Schema errors of `value` against the schema at `ref` in the document ([] when it matches). */
  private errors(ref: string, value: unknown): ErrorObject[] {
    const v = this.validator(ref);
    return v(value) ? [] : (v.errors ?? []);
  }

  /** Breaches of the document by one exchange ([] when there is none). */
  check(x: Exchange): string[] {
    const url = new URL(x.url, 'http://api');
    const route = this.templates.find((t) => t.method === x.method && t.pattern.test(url.pathname));
    // A path that is no endpoint (or a method it does not take) is the gateway's 404/405.
    if (!route)
      return x.status === 404 || x.status === 405 ? [] : [`${x.method} ${url.pathname}: no such operation`];
    const where = `${x.method} ${route.template}`;
    const opRef = `/${pointer('paths', route.template, x.method.toLowerCase())}`;
    const op: Json = this.doc.paths[route.template][x.method.toLowerCase()];
    const breaches: string[] = [];
    const fields = (errs: ErrorObject[], what: string) =>
      errs.map(
        (e) =>
          `${where}: ${what}${e.instancePath || ''} ${e.message}${e.params && 'allowedValues' in e.params ? ` (${(e.params.allowedValues as unknown[]).join(', ')})` : ''}`,
      );

    // The answer.
    const response: Json = op.responses[String(x.status)];
    if (!response) {
      breaches.push(
        `${where}: status ${x.status} is not declared (declared: ${Object.keys(op.responses).join(', ')})`,
      );
    } else {
      const media = x.contentType.split(';')[0]!.trim();
      if (!response.content?.[media]) {
        breaches.push(
          `${where}: ${x.status} answered ${media || 'no content type'}, declared ${Object.keys(response.content ?? {}).join(', ')}`,
        );
      } else {
        const ref = `${opRef}/${pointer('responses', String(x.status), 'content', media, 'schema')}`;
        breaches.push(...fields(this.errors(ref, x.responseBody), `response body`));
      }
      for (const [name, h] of Object.entries<Json>(response.headers ?? {})) {
        const header = h.$ref ? this.doc.components.headers[h.$ref.split('/').pop()] : h;
        if (header.required && !x.responseHeaders.has(name))
          breaches.push(`${where}: response header ${name} is missing`);
      }
    }

    // The request.
    const requestErrors: string[] = [];
    const values = route.pattern.exec(url.pathname)!;
    for (const [i, p] of (op.parameters ?? []).entries()) {
      const raw =
        p.in === 'path'
          ? decodeURIComponent(values[route.names.indexOf(p.name) + 1] ?? '')
          : p.in === 'query'
            ? (url.searchParams.get(p.name) ?? undefined)
            : p.in === 'header'
              ? Object.entries(x.headers).find(([k]) => k.toLowerCase() === p.name.toLowerCase())?.[1]
              : undefined;
      if (raw === undefined) {
        if (p.required) requestErrors.push(`${where}: ${p.in} parameter ${p.name} is missing`);
        continue;
      }
      const schema = p.schema.$ref ? p.schema : p.schema;
      const value = schema.type === 'integer' && /^-?[0-9]+$/.test(raw) ? Number(raw) : raw;
      const ref = `${opRef}/${pointer('parameters', String(i), 'schema')}`;
      requestErrors.push(...fields(this.errors(ref, value), `${p.in} parameter ${p.name}`));
    }
    for (const name of url.searchParams.keys()) {
      if (!(op.parameters ?? []).some((p: Json) => p.in === 'query' && p.name === name))
        requestErrors.push(`${where}: query parameter ${name} is not declared`);
    }
    const body = op.requestBody;
    const sent = Object.entries(x.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
    if (sent !== undefined && body) {
      const [media = '', ...params] = sent.split(';').map((p) => p.trim().toLowerCase());
      const charset = params
        .find((p) => p.startsWith('charset='))
        ?.slice(8)
        .replace(/"/g, '');
      // JSON is UTF-8 (RFC 8259 §8.1): a body announced in another charset is not the declared media type.
      if (!body.content?.[media] || (charset !== undefined && charset !== 'utf-8'))
        requestErrors.push(`${where}: request content type ${sent} is not declared`);
    }
    if (x.body !== undefined && body) {
      const ref = `${opRef}/${pointer('requestBody', 'content', 'application/json', 'schema')}`;
      requestErrors.push(...fields(this.errors(ref, x.body), 'request body'));
    } else if (x.body === undefined && body?.required) {
      requestErrors.push(`${where}: the request body is required`);
    }
    const refusedAsInvalid =
      (x.status === 400 &&
        ['VALIDATION_FAILED', 'MALFORMED_JSON'].includes((x.responseBody as Json)?.code)) ||
      x.status === 415;
    if (requestErrors.length === 0 && refusedAsInvalid && x.body !== INVALID_JSON) {
      const code = (x.responseBody as Json)?.code;
      // Rules the schema language cannot state (free text, bounds across fields) are the server's: the
      // document describes them in words. Anything else the document accepts, the server must too.
      const detail = JSON.stringify((x.responseBody as Json)?.errors ?? (x.responseBody as Json)?.detail);
      if (!/text|client seed|ISO 4217|must not exceed|cut card/i.test(detail))
        breaches.push(
          `${where}: the document accepts this request, the server refused it as ${code}: ${detail}`,
        );
    }
    if (requestErrors.length > 0 && x.status < 400) {
      breaches.push(...requestErrors.map((e) => `${e} — yet the server answered ${x.status}`));
    }
    return breaches;
  }
}

/** A body that is not JSON (sent raw): the document cannot say anything of it. */
export const INVALID_JSON = Symbol('invalid JSON');
