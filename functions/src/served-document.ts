import type { ServedDocument } from './documents';

const served = new Map<ServedDocument, Promise<Record<string, unknown>>>();

/**
 * The document a Meta endpoint answers, made once per container. In a Lambda bundle it was rendered
 * when the bundle was built (esbuild `define` of `process.env.PYB_SERVED_DOCUMENT`,
 * infra/src/esbuild-options.ts), so the function's import holds no schema; unbundled (the local stack,
 * tests) the variable is unset and the document is built from the contracts (./documents, loaded with
 * `import()` so a bundle keeps it out of what its cold start parses).
 */
export function servedDocument(handler: ServedDocument): Promise<Record<string, unknown>> {
  let document = served.get(handler);
  if (!document) {
    const rendered = process.env.PYB_SERVED_DOCUMENT;
    document =
      rendered === undefined
        ? import('./documents').then(
            (m) => m.SERVED_DOCUMENTS[handler]() as unknown as Record<string, unknown>,
          )
        : Promise.resolve(JSON.parse(rendered) as Record<string, unknown>);
    served.set(handler, document);
  }
  return document;
}
