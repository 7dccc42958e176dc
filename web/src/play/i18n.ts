/**
 * The game client's words in English and Spanish (the rulebooks' language: Punto, Banca, Empate,
 * "no va más", "última mano"). One table of messages, typed so that a key missing in either language
 * is a type error. The language comes from `?lang=`, else the browser's; the page offers the other.
 */
import type { ProblemCode } from '@pyb/contracts';
import { plural, type RoadWords } from '../lib/roads';
import type { TableConfig } from '../lib/types';

export type Lang = 'en' | 'es';

const EN = {
  title: 'Punto y Banca',
  balance: 'Balance',
  limits: 'Table limits',
  language: 'Español',
  connecting: 'Connecting…',
  connected: 'Live',
  reconnecting: 'Connection lost — reconnecting…',
  waiting: 'Waiting for the next round…',
  betsOpen: 'Place your bets',
  secondsLeft: '{seconds} s to no va más',
  noMoreBets: 'No va más — no more bets',
  dealing: 'Dealing',
  lastHand: 'Última mano — the last coup of this shoe',
  round: 'Coup {number}',
  shoe: 'Shoe',
  commitment: 'Commitment',
  beaconRound: 'Beacon round',
  verifyShoe: 'Verify this shoe',
  chips: 'Chips',
  place: 'Place bets',
  undo: 'Undo',
  clear: 'Clear',
  rebet: 'Rebet',
  double: 'Double',
  pending: 'To place: {amount}',
  onTable: 'On the table: {amount}',
  accepted: 'Bets accepted: {amount} on the table.',
  nothingToRebet: 'No bets of the last round to repeat.',
  punto: 'Punto',
  banca: 'Banca',
  empate: 'Empate',
  wins: '{side} wins',
  tie: 'Empate',
  natural: 'natural',
  youWon: 'You won {amount}',
  youLost: 'You lost {amount}',
  youBroke: 'Your stake came back: {amount}',
  commission: 'commission {amount}',
  noBet: 'You did not bet this coup.',
  roads: 'Roads',
  history: 'Your last rounds',
  noHistory: 'No rounds yet.',
  proof: 'proof',
  rules: 'The third-card rule',
  dealOrder: 'Cards in the order dealt',
  rulesText:
    'Two cards each. A total of 8 or 9 on either side is a natural: both stand. Otherwise Punto draws on 0–5 and stands on 6–7. If Punto stood, Banca draws on 0–5. If Punto drew, Banca draws on 0–2; on 3 unless Punto’s third card is an 8; on 4 if it is 2–7; on 5 if it is 4–7; on 6 if it is 6 or 7; Banca stands on 7.',
  pays: 'pays {ratio}',
  min: 'min {amount}',
  max: 'max {amount}',
  sessionEnded: 'Your game session ended: open the game again from the casino.',
  tableLocked: 'The table is closed for now: {reason}',
  tableDisabled: 'The casino has closed this table for now: {reason}',
  betDisabled: '{bet} is not offered from the next round on.',
  shoeEnded: 'The shoe is over; a new one is being prepared.',
  settled: 'Payouts done.',
  voided: 'This coup was voided; bets are refunded.',
} as const;

export type MessageKey = keyof typeof EN;

const ES: Record<MessageKey, string> = {
  title: 'Punto y Banca',
  balance: 'Saldo',
  limits: 'Límites de la mesa',
  language: 'English',
  connecting: 'Conectando…',
  connected: 'En directo',
  reconnecting: 'Conexión perdida — reconectando…',
  waiting: 'Esperando la próxima mano…',
  betsOpen: 'Hagan sus apuestas',
  secondsLeft: '{seconds} s para el no va más',
  noMoreBets: 'No va más',
  dealing: 'Se reparten las cartas',
  lastHand: 'Última mano del sabot',
  round: 'Mano {number}',
  shoe: 'Sabot',
  commitment: 'Compromiso',
  beaconRound: 'Ronda del faro',
  verifyShoe: 'Verificar este sabot',
  chips: 'Fichas',
  place: 'Apostar',
  undo: 'Deshacer',
  clear: 'Borrar',
  rebet: 'Repetir',
  double: 'Doblar',
  pending: 'Por apostar: {amount}',
  onTable: 'En la mesa: {amount}',
  accepted: 'Apuestas aceptadas: {amount} en la mesa.',
  nothingToRebet: 'No hay apuestas de la mano anterior que repetir.',
  punto: 'Punto',
  banca: 'Banca',
  empate: 'Empate',
  wins: 'Gana {side}',
  tie: 'Empate',
  natural: 'natural',
  youWon: 'Ha ganado {amount}',
  youLost: 'Ha perdido {amount}',
  youBroke: 'Recupera su apuesta: {amount}',
  commission: 'comisión {amount}',
  noBet: 'No apostó en esta mano.',
  roads: 'Tableros',
  history: 'Sus últimas manos',
  noHistory: 'Aún no hay manos.',
  proof: 'prueba',
  rules: 'La regla de la tercera carta',
  dealOrder: 'Las cartas en el orden en que salieron',
  rulesText:
    'Dos cartas para cada uno. Un 8 o un 9 en cualquiera de los dos es natural: ambos se plantan. Si no, Punto pide con 0–5 y se planta con 6–7. Si Punto se plantó, Banca pide con 0–5. Si Punto pidió, Banca pide con 0–2; con 3 salvo que la tercera carta de Punto sea un 8; con 4 si es 2–7; con 5 si es 4–7; con 6 si es 6 o 7; con 7 se planta.',
  pays: 'paga {ratio}',
  min: 'mín. {amount}',
  max: 'máx. {amount}',
  sessionEnded: 'Su sesión de juego terminó: abra el juego de nuevo desde el casino.',
  tableLocked: 'La mesa está cerrada por ahora: {reason}',
  tableDisabled: 'El casino ha cerrado esta mesa por ahora: {reason}',
  betDisabled: '{bet} no se ofrece a partir de la próxima mano.',
  shoeEnded: 'El sabot ha terminado; se prepara uno nuevo.',
  settled: 'Pagos realizados.',
  voided: 'Esta mano se anuló; las apuestas se devuelven.',
};

/** Bet types in Spanish where the name differs (Punto, Banca and Empate are the same words). */
export const ES_BET_NAMES: Partial<Record<string, string>> = {
  PLAYER_PAIR: 'Pareja de Punto',
  BANKER_PAIR: 'Pareja de Banca',
  EITHER_PAIR: 'Cualquier pareja',
  PERFECT_PAIR: 'Pareja perfecta',
  BIG: 'Grande',
  SMALL: 'Pequeña',
};

/** A refusal a player meets, in Spanish (the others fall back to the English words of lib/problems.ts). */
export const ES_PROBLEMS: Partial<Record<ProblemCode | 'NETWORK', string>> = {
  NETWORK: 'El servidor no responde. Compruebe la conexión e inténtelo de nuevo.',
  BET_EMPTY: 'Ponga primero una ficha en una apuesta.',
  ROUND_NOT_OPEN: '«No va más»: las apuestas de esta mano están cerradas.',
  BET_BELOW_MIN: 'La apuesta está por debajo del mínimo de la mesa.',
  BET_ABOVE_MAX: 'La apuesta supera el máximo de la mesa.',
  RG_LIMIT_REACHED: 'La apuesta superaría uno de sus límites de juego responsable.',
  INSUFFICIENT_FUNDS: 'Saldo insuficiente para esta apuesta.',
  TOKEN_EXPIRED: 'Su sesión de juego caducó: abra el juego de nuevo desde el casino.',
  TOKEN_REVOKED: 'Su sesión de juego terminó: abra el juego de nuevo desde el casino.',
  TOKEN_INVALID: 'Su sesión de juego no es válida: abra el juego de nuevo desde el casino.',
  LAUNCH_TOKEN_USED: 'Este enlace de juego ya se usó: abra el juego de nuevo desde el casino.',
  LAUNCH_TOKEN_EXPIRED: 'Este enlace de juego caducó: abra el juego de nuevo desde el casino.',
  LAUNCH_TOKEN_INVALID: 'Este enlace de juego no es válido: abra el juego de nuevo desde el casino.',
  TABLE_LOCKED: 'La mesa está cerrada por ahora.',
  TABLE_DISABLED: 'El operador ha cerrado esta mesa.',
  BET_SIDE_DISABLED: 'Esta apuesta no se ofrece en esta mano.',
};

export const MESSAGES: Record<Lang, Record<MessageKey, string>> = { en: EN, es: ES };

/** `?lang=es|en`, else the browser's first language if Spanish, else English. */
export function pickLang(search: string, languages: readonly string[]): Lang {
  const asked = new URLSearchParams(search).get('lang');
  if (asked === 'es' || asked === 'en') return asked;
  return languages[0]?.toLowerCase().startsWith('es') ? 'es' : 'en';
}

/** The message in `lang`, `{name}` replaced by `vars.name`. */
export function say(lang: Lang, key: MessageKey, vars: Record<string, string | number> = {}): string {
  return MESSAGES[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}

/** The five roads in Spanish (their names as Spanish-speaking tables use them; Punto, Banca, Empate kept). */
export const ES_ROAD_WORDS: RoadWords = {
  roads: {
    beadPlate: 'Tablero de cuentas',
    bigRoad: 'Camino grande',
    bigEyeBoy: 'Ojo grande',
    smallRoad: 'Camino pequeño',
    cockroachPig: 'Cucaracha',
  },
  marks: { natural: 'natural', playerPair: 'pareja de Punto', bankerPair: 'pareja de Banca' },
  coup: (n) => `Mano ${n}`,
  noCoup: 'aún no hay manos',
  beadSummary: (coups, last) => `${plural(coups, 'mano', 'manos')}, la última ${last}`,
  thenTies: (ties) => `, luego ${ties} Empate`,
  onlyTies: (ties) => `${ties} Empate, aún sin Punto ni Banca`,
  bigSummary: (streaks, now, length) => `${plural(streaks, 'racha', 'rachas')}, ahora ${now} × ${length}`,
  derivedMark: (i, red) => `${i}: ${red ? 'rojo (repite)' : 'azul (alterna)'}`,
  notStarted: 'aún no empieza',
  derivedSummary: (red, blue) => `${red} rojo (repite), ${blue} azul (alterna)`,
  counts: (c, coups) =>
    `${plural(coups, 'mano', 'manos')}: Punto ${c.player}, Banca ${c.banker}, Empate ${c.tie}; naturales ${c.natural}, parejas de Punto ${c.playerPair}, parejas de Banca ${c.bankerPair}`,
  legend: 'Leyenda',
  legendItems: [
    'P Punto',
    'B Banca',
    'E Empate (raya en el camino grande)',
    'cuadrado arriba a la derecha: natural',
    'punto arriba a la izquierda: pareja de Banca',
    'punto abajo a la derecha: pareja de Punto',
    'caminos derivados: rojo lleno = repite, azul rayado o hueco = alterna',
  ],
};

/** How the main bets pay at this table, in Spanish (the console's English: table-facts.ts `paysText`). */
export function paysTextEs(config: TableConfig): string {
  const banca =
    config.bankerMode === 'EZ'
      ? 'EZ: Banca 1:1 sin comisión; una Banca ganadora con un 7 de tres cartas empata'
      : config.bankerMode === 'SUPER_6'
        ? 'Super 6: Banca 1:1 sin comisión; una Banca ganadora con 6 paga 1:2'
        : `Banca 1:1 menos ${config.commission.rateBps / 100} % de comisión (${config.commission.mode === 'DEFERRED' ? 'adeudada, se paga al dejar la mesa' : 'descontada de la ganancia'})`;
  return `${banca}; Punto 1:1; Empate ${config.tiePays}:1${config.pairBets ? '; parejas 11:1' : ''}`;
}
