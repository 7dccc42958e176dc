/**
 * The API's shapes, as the zod contracts (packages/contracts) define them: type-only imports, so
 * nothing of zod or the contracts is bundled, and a contract change is a type error here.
 */
import type {
  KeyIdentity as KeyIdentitySchema,
  LeaveTableResponse as LeaveTableResponseSchema,
  LedgerPage as LedgerPageSchema,
  PlaceBetResponse as PlaceBetResponseSchema,
  PlayerRecall as PlayerRecallSchema,
  Problem as ProblemSchema,
  RoundReplay as RoundReplaySchema,
  Round as RoundSchema,
  Scoreboard as ScoreboardSchema,
  SeatMap as SeatMapSchema,
  ShoeBundle as ShoeBundleSchema,
  Shoe as ShoeSchema,
  SigningKey as SigningKeySchema,
  Table as TableSchema,
  Wallet as WalletSchema,
} from '@pyb/contracts';
import type * as z from 'zod';

export type Table = z.infer<ReturnType<typeof TableSchema>>;
export type TableConfig = Table['config'];
export type Shoe = z.infer<ReturnType<typeof ShoeSchema>>;
export type Round = z.infer<ReturnType<typeof RoundSchema>>;
export type Position = Round['positions'][number];
export type Coup = NonNullable<Round['result']>;
export type CoupStep = Coup['steps'][number];
export type Scoreboard = z.infer<ReturnType<typeof ScoreboardSchema>>;
export type SeatMap = z.infer<ReturnType<typeof SeatMapSchema>>;
export type SeatView = SeatMap['seats'][number];
export type ResultsPanel = Scoreboard['panel'];
export type Wallet = z.infer<ReturnType<typeof WalletSchema>>;
export type PlaceBetResponse = z.infer<ReturnType<typeof PlaceBetResponseSchema>>;
export type LedgerPage = z.infer<ReturnType<typeof LedgerPageSchema>>;
export type RoundReplay = z.infer<ReturnType<typeof RoundReplaySchema>>;
export type PlayerRecall = z.infer<ReturnType<typeof PlayerRecallSchema>>;
export type ShoeBundleView = z.infer<ReturnType<typeof ShoeBundleSchema>>;
export type SigningKey = z.infer<ReturnType<typeof SigningKeySchema>>;
export type Problem = z.infer<ReturnType<typeof ProblemSchema>>;
export type LeaveTable = z.infer<ReturnType<typeof LeaveTableResponseSchema>>;
export type KeyIdentity = z.infer<ReturnType<typeof KeyIdentitySchema>>;
