/**
 * The game client's pure parts: the bet slip (chips, undo, clear, rebet, double), the page's language,
 * its messages, and where its live channel is.
 */
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, contentSecurityPolicy } from '../site';
import { MESSAGES, pickLang, say } from '../src/play/i18n';
import { liveUrl } from '../src/play/live';
import { BetSlip } from '../src/play/slip';

const ORDER = ['PLAYER', 'BANKER', 'TIE', 'PLAYER_PAIR', 'BANKER_PAIR'];

describe('the bet slip', () => {
  it('adds chips per spot and undoes them one action at a time', () => {
    const slip = new BetSlip();
    slip.add('BANKER', 500);
    slip.add('BANKER', 500);
    slip.add('TIE', 100);
    expect(slip.request(ORDER)).toEqual([
      { type: 'BANKER', amount: 1_000 },
      { type: 'TIE', amount: 100 },
    ]);
    expect(slip.total).toBe(1_100);
    expect(slip.undo()).toBe(true);
    expect(slip.request(ORDER)).toEqual([{ type: 'BANKER', amount: 1_000 }]);
    expect(slip.undo()).toBe(true);
    expect(slip.undo()).toBe(true);
    expect(slip.empty).toBe(true);
    expect(slip.undo()).toBe(false);
  });

  it('refuses a chip that is not a positive whole amount', () => {
    const slip = new BetSlip();
    for (const bad of [0, -100, 1.5, Number.NaN]) expect(() => slip.add('PLAYER', bad)).toThrow(RangeError);
    expect(slip.empty).toBe(true);
  });

  it('rebets the last round, doubles the table and the slip, and undoes a double as one step', () => {
    const slip = new BetSlip();
    expect(slip.rebet(new Map())).toBe(false);
    expect(slip.rebet(new Map([['PLAYER', 500]]))).toBe(true);
    slip.add('TIE', 100);
    // On the table already: 1,000 on Banca. Double adds the same again of each spot.
    expect(slip.double(new Map([['BANKER', 1_000]]))).toBe(true);
    expect(slip.request(ORDER)).toEqual([
      { type: 'PLAYER', amount: 1_000 },
      { type: 'BANKER', amount: 1_000 },
      { type: 'TIE', amount: 200 },
    ]);
    slip.undo();
    expect(slip.request(ORDER)).toEqual([
      { type: 'PLAYER', amount: 500 },
      { type: 'TIE', amount: 100 },
    ]);
    slip.clear();
    expect(slip.empty).toBe(true);
    expect(slip.undo()).toBe(false);
    expect(slip.double(new Map())).toBe(false);
  });
});

describe('the language', () => {
  it('follows ?lang=, else the browser, else English', () => {
    expect(pickLang('?lang=es', ['en-GB'])).toBe('es');
    expect(pickLang('?lang=en', ['es-ES'])).toBe('en');
    expect(pickLang('?lang=fr', ['es-MX', 'en'])).toBe('es');
    expect(pickLang('', ['de-DE', 'es'])).toBe('en');
    expect(pickLang('', [])).toBe('en');
  });

  it('fills a message in either language and says the rulebooks’ words', () => {
    expect(say('en', 'wins', { side: 'Banca' })).toBe('Banca wins');
    expect(say('es', 'wins', { side: 'Banca' })).toBe('Gana Banca');
    expect(say('es', 'noMoreBets')).toBe('No va más');
    expect(say('es', 'lastHand')).toMatch(/^Última mano/);
    // A placeholder with no value stays visible rather than vanishing.
    expect(say('en', 'round')).toBe('Coup {number}');
    expect(Object.keys(MESSAGES.es).sort()).toEqual(Object.keys(MESSAGES.en).sort());
  });
});

describe('the live channel', () => {
  it('a path is on the page’s own origin, ws or wss as the page; a URL is kept', () => {
    expect(liveUrl('/live', { protocol: 'http:', host: 'localhost:3000' })).toBe('ws://localhost:3000/live');
    expect(liveUrl('/mqtt?x=1', { protocol: 'https:', host: 'play.example' })).toBe(
      'wss://play.example/mqtt?x=1',
    );
    expect(liveUrl('wss://iot.example/mqtt', { protocol: 'https:', host: 'play.example' })).toBe(
      'wss://iot.example/mqtt',
    );
  });
});

describe('the pages\u2019 CSP and the live channel', () => {
  it('connects to its own origin only, plus a deployment\u2019s wss live origin (no path, no query)', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'self';");
    expect(contentSecurityPolicy('/mqtt')).toBe(CONTENT_SECURITY_POLICY);
    expect(
      contentSecurityPolicy(
        'wss://abc-ats.iot.eu-west-1.amazonaws.com/mqtt?x-amz-customauthorizer-name=pyb-prod-players',
      ),
    ).toContain("connect-src 'self' wss://abc-ats.iot.eu-west-1.amazonaws.com;");
  });
});
