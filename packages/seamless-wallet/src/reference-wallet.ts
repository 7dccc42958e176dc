/**
 * The reference operator wallet: a small HTTP server implementing the seamless wallet protocol the
 * way an operator must (docs/seamless-wallet.md), with its own books, and faults to inject. `./scripts/dev`
 * runs one for its seamless demo operator; the tests drive the platform against it over real HTTP.
 *
 * What it guarantees, as every operator wallet must: each txId is applied at most once and a repeat
 * gets the first answer; a debit is refused (422) when the player cannot pay; a rollback gives back
 * an applied debit, or — if the debit never arrived — books nothing and refuses that debit for ever.
 *
 * Faults (`inject`): a rule matches the next calls of an operation and changes what happens to them —
 * the request lost or the answer lost (`timeout`, with or without booking), a 5xx (with or without
 * booking), a slow answer, the request delivered twice to the books, an answer signed with a wrong
 * secret, a debit refused for funds. Also over HTTP, unsigned, for local use: `POST /_control/...`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  SEAMLESS_HEADERS,
  SEAMLESS_OPERATIONS,
  SEAMLESS_REQUESTS,
  type SeamlessOperation,
  type SeamlessRequests,
} from '@pyb/contracts';
import * as z from 'zod';
import { type Answer, type BookEntry, ReferenceBooks } from './reference-books';
import { nowSeconds, sign, verify } from './signature';

export type { BookEntry } from './reference-books';

/** A fault rule as the control endpoint takes it (bad input: 400 with the zod message). */
const FaultRuleInput = z
  .object({
    operation: z.enum(SEAMLESS_OPERATIONS).optional(),
    times: z.int().min(1).max(1000).optional(),
    fault: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('timeout'), apply: z.boolean() }).strict(),
      z
        .object({
          kind: z.literal('status'),
          status: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]),
          apply: z.boolean(),
        })
        .strict(),
      z.object({ kind: z.literal('slow'), delayMs: z.int().min(0).max(60_000) }).strict(),
      z.object({ kind: z.literal('duplicate') }).strict(),
      z.object({ kind: z.literal('badSignature') }).strict(),
      z.object({ kind: z.literal('insufficientFunds') }).strict(),
    ]),
  })
  .strict();
const FundInput = z
  .object({
    playerId: z.string().min(1).max(64),
    currency: z.string().length(3),
    amount: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
  })
  .strict();

export type Fault =
  /** No answer within the client's deadline; `apply`: the call is booked first (the answer is lost), else not (the request is lost). */
  | { kind: 'timeout'; apply: boolean }
  /** A 5xx answer; `apply` as for timeout. */
  | { kind: 'status'; status: 500 | 502 | 503 | 504; apply: boolean }
  /** The right answer, `delayMs` late. */
  | { kind: 'slow'; delayMs: number }
  /** The request reaches the books twice (as a retrying proxy would deliver it); one answer. */
  | { kind: 'duplicate' }
  /** The call is booked and answered, but the answer is signed with a wrong secret. */
  | { kind: 'badSignature' }
  /** A debit refused for funds whatever the balance. */
  | { kind: 'insufficientFunds' };

export interface FaultRule {
  /** Which operation it hits; all when absent. */
  operation?: SeamlessOperation;
  fault: Fault;
  /** How many calls it hits (default 1). */
  times?: number;
}

/** One line of the operator's books: a movement of a player's balance, or a recorded non-movement. */
export interface ReferenceWalletOptions {
  /** Secrets it accepts requests under; the first signs its answers. */
  secrets: readonly string[];
  /** Default 0: a free port. */
  port?: number;
  host?: string;
  /** The path the protocol lives under (default `/pyb`). */
  basePath?: string;
  /** How long a `timeout` fault holds the connection before dropping it (default 10 s; closing the server drops it too). */
  holdMs?: number;
  now?: () => number;
}

export class ReferenceWallet {
  /** The books: balances, transactions seen, entries (reference-books.ts). */
  private readonly ledger = new ReferenceBooks();
  private rules: Required<FaultRule>[] = [];
  private secrets: readonly string[];
  private readonly basePath: string;
  private readonly now: () => number;
  /** Every protocol request received (signed or not), for the tests. */
  readonly received: { operation: string; status: number; body: unknown }[] = [];
  private server?: Server;
  private readonly holds = new Set<ReturnType<typeof setTimeout>>();

  constructor(private readonly options: ReferenceWalletOptions) {
    if (options.secrets.length === 0) throw new Error('the reference wallet needs at least one secret');
    this.secrets = options.secrets;
    this.basePath = (options.basePath ?? '/pyb').replace(/\/+$/, '');
    this.now = options.now ?? nowSeconds;
  }

  static async start(options: ReferenceWalletOptions): Promise<ReferenceWallet> {
    const wallet = new ReferenceWallet(options);
    await wallet.listen();
    return wallet;
  }

  /** The base URL the platform is configured with. */
  get url(): string {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error('the reference wallet is not listening');
    return `http://${this.options.host ?? '127.0.0.1'}:${address.port}${this.basePath}`;
  }

  async listen(): Promise<void> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => resolve());
    });
  }

  async close(): Promise<void> {
    for (const hold of this.holds) clearTimeout(hold);
    this.holds.clear();
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = undefined;
  }

  /** Opens (or tops up) a player's account. */
  fund(playerId: string, currency: string, amount: number): void {
    this.ledger.fund(playerId, currency, amount);
  }

  balanceOf(playerId: string): number | undefined {
    return this.ledger.balanceOf(playerId);
  }

  /** The operator's books, in booking order. */
  books(): readonly BookEntry[] {
    return this.ledger.entries();
  }

  inject(rule: FaultRule): void {
    this.rules.push({
      operation: rule.operation ?? (undefined as never),
      fault: rule.fault,
      times: rule.times ?? 1,
    });
  }

  clearFaults(): void {
    this.rules = [];
  }

  /** Replace the secrets it accepts (a rotation: new first, old second, then new only). */
  rotate(secrets: readonly string[]): void {
    if (secrets.length === 0) throw new Error('at least one secret');
    this.secrets = secrets;
  }

  private takeFault(operation: SeamlessOperation): Fault | undefined {
    const rule = this.rules.find(
      (r) => r.times > 0 && (r.operation === undefined || r.operation === operation),
    );
    if (!rule) return undefined;
    rule.times -= 1;
    this.rules = this.rules.filter((r) => r.times > 0);
    return rule.fault;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://wallet');
    const raw = await readBody(req);
    if (url.pathname.startsWith('/_control/'))
      return this.control(url.pathname.slice('/_control/'.length), raw, res);
    const operation = url.pathname.startsWith(`${this.basePath}/`)
      ? (url.pathname.slice(this.basePath.length + 1) as SeamlessOperation)
      : undefined;
    if (req.method !== 'POST' || !operation || !SEAMLESS_OPERATIONS.includes(operation)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'NOT_FOUND' }));
      return;
    }
    const header = (name: string): string | undefined => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const failure = verify(
      this.secrets,
      { first: 'POST', path: url.pathname, timestamp: header(SEAMLESS_HEADERS.timestamp) ?? '', body: raw },
      header(SEAMLESS_HEADERS.signature),
      this.now(),
    );
    if (failure) {
      this.received.push({ operation, status: 401, body: raw });
      return this.send(res, url.pathname, {
        status: 401,
        body: { code: failure, message: 'request not accepted' },
      });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = undefined;
    }
    const request = SEAMLESS_REQUESTS()[operation].safeParse(parsed);
    if (!request.success) {
      this.received.push({ operation, status: 400, body: parsed });
      return this.send(res, url.pathname, {
        status: 400,
        body: { code: 'BAD_REQUEST', message: request.error.message },
      });
    }
    const fault = this.takeFault(operation);
    const apply = () => this.ledger.apply(operation, request.data as SeamlessRequests[typeof operation]);
    let answer: Answer;
    switch (fault?.kind) {
      case 'timeout':
        if (fault.apply) apply();
        this.received.push({ operation, status: 0, body: request.data });
        return this.hold(res);
      case 'status':
        if (fault.apply) apply();
        this.received.push({ operation, status: fault.status, body: request.data });
        res.writeHead(fault.status, { 'content-type': 'text/plain' });
        res.end('wallet unavailable');
        return;
      case 'duplicate':
        apply();
        answer = apply();
        break;
      case 'insufficientFunds':
        // A repeat of a txId already answered keeps its first answer (the money may have moved).
        answer =
          operation === 'debit' && !this.ledger.has((request.data as { txId?: string }).txId ?? '')
            ? this.ledger.remember(request.data as unknown as { txId: string }, {
                status: 422,
                body: { code: 'INSUFFICIENT_FUNDS' },
              })
            : apply();
        break;
      case 'slow':
        answer = apply();
        await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
        break;
      default:
        answer = apply();
    }
    this.received.push({ operation, status: answer.status, body: request.data });
    return this.send(
      res,
      url.pathname,
      answer,
      fault?.kind === 'badSignature' ? 'not-the-secret' : undefined,
    );
  }

  private send(res: ServerResponse, path: string, answer: Answer, secret = this.secrets[0] as string): void {
    const body = JSON.stringify(answer.body);
    const timestamp = String(this.now());
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      [SEAMLESS_HEADERS.timestamp]: timestamp,
      [SEAMLESS_HEADERS.signature]: sign(secret, { first: String(answer.status), path, timestamp, body }),
    });
    res.end(body);
  }

  /** Holds the connection without answering, then drops it. */
  private hold(res: ServerResponse): void {
    const timer = setTimeout(() => {
      this.holds.delete(timer);
      res.destroy();
    }, this.options.holdMs ?? 10_000);
    this.holds.add(timer);
  }

  /** Local, unsigned control for dev and the README tour: fund, faults, books. */
  private control(action: string, raw: string, res: ServerResponse): void {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      const input = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      if (action === 'books') {
        reply(200, this.ledger.snapshot());
        return;
      }
      if (action === 'fund') {
        const fund = FundInput.parse(input);
        this.fund(fund.playerId, fund.currency, fund.amount);
        reply(200, { balance: this.balanceOf(fund.playerId) });
        return;
      }
      if (action === 'faults') {
        if (input.clear) this.clearFaults();
        else this.inject(FaultRuleInput.parse(input) as FaultRule);
        reply(200, { faults: this.rules });
        return;
      }
      reply(404, { code: 'NOT_FOUND' });
    } catch (error) {
      reply(400, { code: 'BAD_REQUEST', message: String(error) });
    }
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
