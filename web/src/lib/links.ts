/** Links between the pages (a module of its own: the game client links to the verifier without loading it). */
import { seg } from './api';

/** The verifier on a shoe's public proof. */
export const verifyLink = (shoeId: string): string => `/verify?shoe=${seg(shoeId)}`;
