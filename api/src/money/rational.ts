/** Exact arithmetic for money conversion: published rates are decimals, so rationals of BigInts are exact. */
export interface Rational {
  n: bigint;
  d: bigint;
}

export type Rounding = 'halfEven' | 'halfUp' | 'down' | 'up';

/** The shortest decimal that round-trips a double (what JavaScript prints) as an exact fraction. */
export function fromNumber(value: number): Rational {
  if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
  const [mantissa = '0', exponentText] = value.toString().toLowerCase().split('e');
  const exponent = Number(exponentText ?? 0);
  const [whole = '0', fraction = ''] = mantissa.split('.');
  let n = BigInt(whole + fraction);
  let d = 10n ** BigInt(fraction.length);
  if (exponent > 0) n *= 10n ** BigInt(exponent);
  if (exponent < 0) d *= 10n ** BigInt(-exponent);
  return { n, d };
}

export const pow10 = (digits: number): bigint => 10n ** BigInt(digits);

export function multiply(a: Rational, b: Rational): Rational {
  return { n: a.n * b.n, d: a.d * b.d };
}

export function divide(a: Rational, b: Rational): Rational {
  if (b.n === 0n) throw new Error('Division by zero');
  const sign = b.n < 0n ? -1n : 1n;
  return { n: a.n * b.d * sign, d: a.d * b.n * sign };
}

const abs = (x: bigint): bigint => (x < 0n ? -x : x);

/** Rounds to a whole number: down = toward zero, up = away from zero, halves by the named rule. */
export function round(value: Rational, mode: Rounding): bigint {
  const sign = value.n < 0n ? -1n : 1n;
  const n = abs(value.n);
  const quotient = n / value.d;
  const remainder = n % value.d;
  if (remainder === 0n) return sign * quotient;
  const twice = remainder * 2n;
  let bump: boolean;
  switch (mode) {
    case 'down':
      bump = false;
      break;
    case 'up':
      bump = true;
      break;
    case 'halfUp':
      bump = twice >= value.d;
      break;
    case 'halfEven':
      bump = twice > value.d || (twice === value.d && quotient % 2n === 1n);
      break;
  }
  return sign * (bump ? quotient + 1n : quotient);
}

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** A decimal written as text ("1.0850") as an exact fraction; undefined when it is not one. */
export function fromDecimal(text: string): Rational | undefined {
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  return { n: BigInt((match[1] ?? '0') + fraction), d: 10n ** BigInt(fraction.length) };
}
