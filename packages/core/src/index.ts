export type * from './ports/key-service';
