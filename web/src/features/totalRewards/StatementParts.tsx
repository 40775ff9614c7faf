import { type ReactNode, createContext, useContext } from 'react';
import { type ColourGroup } from '../../ui/charts';
import { formatNumber } from '../../ui/format';
import { SECTION_SLUGS, type Schemas, type SectionName, paragraphsOf } from './model';

// The pieces every section of the statement is made of.

export const group = (name: Schemas['CompColourGroup']): ColourGroup => name;

/** White or near-black, whichever reads on the company's colour (WCAG relative luminance). */
export function inkOn(hex: string): string {
  const channel = (part: string) => {
    const value = parseInt(part, 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = [hex.slice(1, 3), hex.slice(3, 5), hex.slice(5, 7)].map(channel) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.2 ? '#111827' : '#ffffff';
}

export const sectionId = (name: SectionName) => `tr-${SECTION_SLUGS[name]}`;

/** Whether the statement is the page (its name is the h1) or sits inside another page (the settings' preview). */
export const Embedded = createContext(false);

export function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {paragraphsOf(text).map((paragraph, index) => (
        <p key={index} className="tr-text">
          {paragraph}
        </p>
      ))}
    </>
  );
}

export function StatementSection({ name, title, text, children, actions }: { name: SectionName; title: string; text: string; children?: ReactNode; actions?: ReactNode }) {
  const id = sectionId(name);
  const Heading = useContext(Embedded) ? 'h3' : 'h2';
  return (
    <section className="tr-section" id={id} aria-labelledby={`${id}-title`} data-section={name}>
      <header className="tr-section-head">
        <Heading id={`${id}-title`}>{title}</Heading>
        {actions}
      </header>
      {text && <Paragraphs text={text} />}
      {children}
    </section>
  );
}

export function Change({ percent }: { percent: number | null }) {
  if (percent === null || percent === 0) return null;
  return <span className={percent > 0 ? 'tr-change up' : 'tr-change down'}>{`${percent > 0 ? '+' : ''}${formatNumber(percent, 1)}%`}</span>;
}
