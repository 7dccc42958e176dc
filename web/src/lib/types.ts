/**
 * The API's shapes, as the zod contracts (packages/contracts) define them: type-only imports, so
 * nothing of zod or the contracts is bundled, and a contract change is a type error here.
 */
import type {
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

export type Table = z.infer<typeof TableSchema>;
export type TableConfig = Table['config'];
export type Shoe = z.infer<typeof ShoeSchema>;
export type Round = z.infer<typeof RoundSchema>;
export type Position = Round['positions'][number];
export type Coup = NonNullable<Round['result']>;
export type CoupStep = Coup['steps'][number];
export type Scoreboard = z.infer<typeof ScoreboardSchema>;
export type SeatMap = z.infer<typeof SeatMapSchema>;
export type SeatView = SeatMap['seats'][number];
export type ResultsPanel = Scoreboard['panel'];
export type Wallet = z.infer<typeof WalletSchema>;
export type PlaceBetResponse = z.infer<typeof PlaceBetResponseSchema>;
export type LedgerPage = z.infer<typeof LedgerPageSchema>;
export type RoundReplay = z.infer<typeof RoundReplaySchema>;
export type PlayerRecall = z.infer<typeof PlayerRecallSchema>;
export type ShoeBundleView = z.infer<typeof ShoeBundleSchema>;
export type SigningKey = z.infer<typeof SigningKeySchema>;
export type Problem = z.infer<typeof ProblemSchema>;
export type LeaveTable = z.infer<typeof LeaveTableResponseSchema>;
