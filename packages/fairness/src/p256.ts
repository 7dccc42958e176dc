/**
 * The P-256 curve alone, for signature.ts to `import()`: a dynamically imported module keeps all its
 * exports, so importing `@noble/curves/nist.js` itself would put its other curves and protocols (P-384,
 * P-521, FROST, OPRF: 27 KiB) into the chunk loaded on the first signature check.
 */
export { p256 } from '@noble/curves/nist.js';
