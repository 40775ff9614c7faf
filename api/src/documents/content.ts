/**
 * A document's structured content: what its HTML (for the screen) and its PDF (for download) are
 * both drawn from, so the two never say different things. Rendering a template makes one; a
 * document version stores it as issued.
 */

/** One row of a table: amounts arrive formatted by the module ("$120,000.00", "12%"). */
export interface AmountRow {
  label: string;
  amount: string;
  /** A total or a subtotal: drawn in bold. */
  emphasis?: boolean;
}

export type DocumentBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; lines: string[] }
  | { kind: 'table'; rows: AmountRow[] };

/** How the company's documents look; communicate settings will feed it, the company record does for now. */
export interface Branding {
  companyName: string;
  /** `#rrggbb`: the rule under the header, headings and the mark. */
  accentColor: string;
  /** A few characters drawn in the mark when there is no logo (the company's initials). */
  logoText: string;
  /** The company's logo as issued: the SHA-256 of an image kept by `images.ts`, drawn in the PDF instead of the mark. */
  logoSha256?: string | null;
}

export interface DocumentContent {
  title: string;
  branding: Branding;
  blocks: DocumentBlock[];
}

/** The PWA's accent: a company without branding looks like Paybench. */
export const DEFAULT_ACCENT = '#3b5bdb';
const MAX_LOGO_TEXT = 4;
const MAX_COMPANY_NAME = 200;

/** "Acme Robotics" → "AR": the first letters of the first two words. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter((word) => /\p{L}|\p{N}/u.test(word));
  const initials = words.slice(0, 2).map((word) => [...(word.match(/[\p{L}\p{N}]/u) ?? [''])][0] ?? '');
  return initials.join('').toUpperCase() || '•';
}

/** Why a branding cannot be used, per field; empty when it can. The accent goes into CSS, so only a hex colour passes. */
export function brandingProblems(branding: Branding): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  if (!/^#[0-9a-f]{6}$/i.test(branding.accentColor)) problems.push({ field: 'accentColor', message: 'must be a colour as #rrggbb' });
  const logo = [...branding.logoText.trim()];
  if (logo.length < 1 || logo.length > MAX_LOGO_TEXT) problems.push({ field: 'logoText', message: `must be 1 to ${MAX_LOGO_TEXT} characters` });
  if (branding.logoSha256 !== undefined && branding.logoSha256 !== null && !/^[0-9a-f]{64}$/.test(branding.logoSha256)) problems.push({ field: 'logoSha256', message: 'must be the SHA-256 of a stored image' });
  const name = branding.companyName.trim();
  if (!name || name.length > MAX_COMPANY_NAME) problems.push({ field: 'companyName', message: `must be 1 to ${MAX_COMPANY_NAME} characters` });
  return problems;
}

/** Branding from what the company record has today (its name), with any settings given over it. */
export function brandingFor(companyName: string, overrides: Partial<Branding> = {}): Branding {
  return {
    companyName: overrides.companyName ?? companyName,
    accentColor: overrides.accentColor ?? DEFAULT_ACCENT,
    logoText: overrides.logoText ?? initialsOf(overrides.companyName ?? companyName),
    ...(overrides.logoSha256 ? { logoSha256: overrides.logoSha256 } : {}),
  };
}

/** White or near-black, whichever reads on the accent (WCAG relative luminance). */
export function textOnAccent(accent: string): string {
  const channel = (hex: string): number => {
    const value = parseInt(hex, 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = [accent.slice(1, 3), accent.slice(3, 5), accent.slice(5, 7)].map(channel) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.2 ? '#111827' : '#ffffff';
}
