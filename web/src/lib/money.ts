/**
 * Money from integer minor units, in the wallet's (or table's) currency, by Intl.NumberFormat. The
 * number is handed to Intl as an exact decimal string, so no amount goes through a float.
 */

const formats = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, locale?: string): Intl.NumberFormat {
  const id = `${locale ?? ''}|${currency}`;
  let format = formats.get(id);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    formats.set(id, format);
  }
  return format;
}

/** Digits after the decimal point of `currency` (EUR 2, JPY 0, KWD 3). */
export const minorDigits = (currency: string): number =>
  formatter(currency, 'en').resolvedOptions().maximumFractionDigits ?? 2;

/** The exact decimal string of `minor` minor units: 123456 EUR -> "1234.56". */
export function decimalOf(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not an amount in minor units: ${minor}`);
  const digits = minorDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = String(Math.abs(minor)).padStart(digits + 1, '0');
  return digits === 0 ? `${sign}${abs}` : `${sign}${abs.slice(0, -digits)}.${abs.slice(-digits)}`;
}

/** 123456, "EUR" -> "€1,234.56" (in the page's locale unless one is given). */
export function formatMoney(minor: number, currency: string, locale?: string): string {
  const decimal = decimalOf(minor, currency) as Intl.StringNumericLiteral;
  return formatter(currency, locale).format(decimal);
}
