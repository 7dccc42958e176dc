/**
 * The rules and the interrupted-game policy as a player reads them (es, en), from the table's
 * configuration: what docs/rules.md says the engine does, in the player's words. The interrupted-game
 * policy says what the platform does today (a void before the deal refunds every stake; a dealt coup
 * is settled on its recorded result); the deadlines per state of issue #28 item 4 add to it.
 */
import type { TableConfig } from '@pyb/engine';
import type { DeadlineState } from '../shared';

type Text = { es: string; en: string };

const COMMON: Text = {
  es:
    'Se juega con {decks} barajas de 52 cartas. El As vale 1, del 2 al 9 su valor, el 10 y las figuras 0; una mano vale la cifra de las unidades de su suma. ' +
    'Se reparten dos cartas a Punto y dos a Banca, alternadas (Punto primero). Con 8 o 9 en las dos primeras cartas (natural) no se pide más. ' +
    'Punto pide con 0 a 5 y se planta con 6 o 7. Banca pide con 0 a 2; con 3 salvo que la tercera carta de Punto sea un 8; con 4 si es de 2 a 7; con 5 si es de 4 a 7; con 6 si es 6 o 7; con 7 se planta; si Punto se plantó, Banca pide con 0 a 5. ' +
    'Gana la mano más cercana a 9; con el mismo valor hay Empate, y las apuestas a Punto y a Banca se devuelven.',
  en:
    'Played with {decks} decks of 52 cards. An ace counts 1, 2 to 9 their value, tens and faces 0; a hand is worth the last digit of its sum. ' +
    'Punto and Banca get two cards each, alternately (Punto first). An 8 or 9 on the first two cards (a natural) ends the coup. ' +
    "Punto draws on 0 to 5 and stands on 6 or 7. Banca draws on 0 to 2; on 3 unless Punto's third card is an 8; on 4 if it is 2 to 7; on 5 if it is 4 to 7; on 6 if it is 6 or 7; stands on 7; if Punto stood, Banca draws on 0 to 5. " +
    'The hand closer to 9 wins; equal totals are a tie (Empate), and bets on Punto and Banca are returned.',
};

function bankerText(config: TableConfig): Text {
  if (config.bankerMode === 'EZ')
    return {
      es: 'Banca paga 1 a 1 sin comisión; si Banca gana con un 7 de tres cartas, la apuesta a Banca se devuelve.',
      en: 'Banca pays 1 to 1 with no commission; a Banca win with a three-card 7 is returned (push).',
    };
  if (config.bankerMode === 'SUPER_6')
    return {
      es: 'Banca paga 1 a 1 sin comisión; si Banca gana con 6, paga 1 a 2.',
      en: 'Banca pays 1 to 1 with no commission; a Banca win on 6 pays 1 to 2.',
    };
  const rate = config.commission.rateBps / 100;
  return config.commission.mode === 'DEFERRED'
    ? {
        es: `Banca paga 1 a 1 menos un ${rate}% de comisión, que se acumula y se cobra al final del sabot.`,
        en: `Banca pays 1 to 1 less ${rate}% commission, which accrues and is collected at the end of the shoe.`,
      }
    : {
        es: `Banca paga 1 a 1 menos un ${rate}% de comisión, descontada del premio.`,
        en: `Banca pays 1 to 1 less ${rate}% commission, taken from the win.`,
      };
}

export function rulesText(config: TableConfig): Text {
  const banker = bankerText(config);
  const pairs = config.pairBets
    ? {
        es: ' Pareja de Punto y Pareja de Banca (las dos primeras cartas del mismo rango) pagan 11 a 1.',
        en: " Punto Pair and Banca Pair (a hand's first two cards of the same rank) pay 11 to 1.",
      }
    : { es: '', en: '' };
  const side = config.sideBets && Object.keys(config.sideBets).length > 0;
  const sideText = side
    ? {
        es: ' Las apuestas adicionales de esta mesa, con su pago y su retorno al jugador, se indican en la lista de apuestas.',
        en: " This table's side bets, with their pay tables and return to player, are in the list of bets.",
      }
    : { es: '', en: '' };
  return {
    es: `${COMMON.es.replace('{decks}', String(config.decks))} Punto paga 1 a 1. ${banker.es} Empate paga ${config.tiePays} a 1.${pairs.es}${sideText.es}`,
    en: `${COMMON.en.replace('{decks}', String(config.decks))} Punto pays 1 to 1. ${banker.en} A tie pays ${config.tiePays} to 1.${pairs.en}${sideText.en}`,
  };
}

/** A duration in the policy's words: whole minutes when it is, else seconds. */
const spoken = (seconds: number, lang: 'es' | 'en'): string => {
  if (seconds % 60 !== 0) return lang === 'es' ? `${seconds} segundos` : `${seconds} seconds`;
  const m = seconds / 60;
  return lang === 'es' ? `${m} ${m === 1 ? 'minuto' : 'minutos'}` : `${m} ${m === 1 ? 'minute' : 'minutes'}`;
};

/**
 * The interrupted-game policy as players read it (docs/rules.md, "Interrupted games"), with the
 * deadlines the platform enforces (rounds/deadlines.ts).
 */
export function interruptedGamesText(deadlines: Readonly<Record<DeadlineState, number>>): Text {
  const es = (s: DeadlineState) => spoken(deadlines[s], 'es');
  const en = (s: DeadlineState) => spoken(deadlines[s], 'en');
  return {
    es:
      'Si una partida se interrumpe antes de repartir las cartas, la ronda se anula y se devuelven todas las apuestas: ' +
      `lo hace la plataforma si las apuestas siguen abiertas ${es('OPEN')} después de abrirse la ronda, o si no se han repartido las cartas ${es('CLOSED')} después de «no va más». ` +
      `Una vez repartidas, el resultado registrado es el que vale: la ronda se liquida con él aunque se pierda la conexión (la plataforma termina la liquidación pendiente a los ${es('SETTLING')}), y el historial muestra cada ronda con su estado. ` +
      'Si el jugador se desconecta, sus apuestas siguen en juego y se liquidan igual.',
    en:
      'If a game is interrupted before the cards are dealt, the round is void and every stake is returned: ' +
      `the platform does it when betting is still open ${en('OPEN')} after the round opened, or no cards are dealt ${en('CLOSED')} after "no va más". ` +
      `Once the cards are dealt, the recorded result stands: the round is settled on it even if the connection is lost (the platform finishes a settlement left pending after ${en('SETTLING')}), and the history shows each round with its status. ` +
      'If the player disconnects, his bets stay in play and are settled the same way.',
  };
}
