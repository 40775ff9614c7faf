import { ChartColumn, Download, FileSignature, Gift, House, Inbox, Info, Layers, ListChecks, Palette, Plug, Search, Settings, SlidersHorizontal, Users, Wrench } from 'lucide-react';
import { PaybenchMark, Brand } from '../../ui/Brand';
import { COLOUR_GROUPS, type ColourGroup, colourOf } from '../../ui/charts';
import { DataTable } from '../../ui/DataTable';
import './uikit.css';
import { Specimen } from './UiKitParts';

// The UI kit's foundations: brand, colour, type, tokens and icons.

const SEMANTIC = [
  ['--color-canvas', 'Canvas'],
  ['--color-surface', 'Surface'],
  ['--color-surface-sunken', 'Sunken'],
  ['--color-ink', 'Ink'],
  ['--color-ink-muted', 'Muted ink'],
  ['--color-border', 'Border'],
  ['--color-border-strong', 'Control border'],
  ['--color-accent', 'Accent'],
  ['--color-accent-soft', 'Accent, soft'],
  ['--color-focus', 'Focus ring'],
  ['--color-success', 'Success'],
  ['--color-warning', 'Warning'],
  ['--color-danger', 'Danger'],
  ['--color-info', 'Info'],
  ['--color-nav', 'Navigation'],
] as const;

const LAYERS = [
  ['hide', -1],
  ['base', 0],
  ['above', 1],
  ['sticky', 1100],
  ['banner', 1200],
  ['overlay', 1300],
  ['modal', 1400],
  ['tour', 1450],
  ['menu', 1500],
  ['popover', 1600],
  ['dropdown', 1650],
  ['tooltip', 1700],
  ['impersonationFrame', 1800],
] as const;

const BREAKPOINTS = [
  ['xs', 425],
  ['sm', 640],
  ['md', 768],
  ['lg', 1024],
  ['xl', 1280],
  ['2xl', 1536],
  ['3xl', 2560],
] as const;

const ICONS = { House, ChartColumn, Users, Plug, Layers, FileSignature, Gift, Settings, Wrench, ListChecks, Download, Search, SlidersHorizontal, Inbox, Info, Palette };

/** Brand, colour, type, breakpoints and icons, as the tokens define them. */
export function Foundations() {
  return (
    <>
      <Specimen id="brand" title="Brand" source="ui/Brand.tsx">
        <div className="kit-row">
          <span className="kit-on-nav">
            <Brand />
          </span>
          <PaybenchMark size={48} title="Paybench" />
        </div>
        <p className="muted small-text">Paybench's own mark. A company's logo and colours (communicate → appearance) are not stored by the API yet; when they are, they take this place on employee-facing screens.</p>
      </Specimen>

      <Specimen id="colours" title="Colour" source="ui/tokens.css" note="Semantic colours: screens name the role, never a hex value, so dark mode follows the system setting on its own.">
        <ul className="swatches" aria-label="Semantic colours">
          {SEMANTIC.map(([token, label]) => (
            <li key={token}>
              <span className="swatch-big" style={{ background: `var(${token})` }} aria-hidden="true" />
              <span>{label}</span>
              <code>{token}</code>
            </li>
          ))}
        </ul>
      </Specimen>

      <Specimen id="comp-colours" title="Compensation colour groups" source="ui/charts/theme.ts" note="Every chart and legend that shows a kind of pay draws it in its group's colour (colourOf(groupOf(kind))); several series of one kind take its shades.">
        <ul className="swatches" aria-label="Compensation colour groups">
          {(Object.keys(COLOUR_GROUPS) as ColourGroup[]).map((group) => (
            <li key={group}>
              <span className="swatch-big" style={{ background: colourOf(group) }} aria-hidden="true" />
              <span>
                {COLOUR_GROUPS[group].label} <span className="muted">({group})</span>
              </span>
              <code>{COLOUR_GROUPS[group].token}</code>
            </li>
          ))}
        </ul>
      </Specimen>

      <Specimen id="type" title="Type" source="Inter, self-hosted (@fontsource/inter)">
        <div className="type-scale">
          <p style={{ fontSize: 'var(--text-3xl)', fontWeight: 700 }}>Pay people fairly · 34</p>
          <p style={{ fontSize: 'var(--text-2xl)', fontWeight: 700 }}>Page title · 28</p>
          <p style={{ fontSize: 'var(--text-xl)', fontWeight: 600 }}>Section title · 22</p>
          <p style={{ fontSize: 'var(--text-lg)', fontWeight: 600 }}>Card title · 18</p>
          <p>Body text · 16. The quick brown fox pays the lazy dog its market median.</p>
          <p className="small-text muted">Small and muted · 14</p>
        </div>
      </Specimen>

      <Specimen id="tokens" title="Breakpoints, layers and durations" source="ui/tokens.css (spec §9)">
        <div className="kit-columns">
          <DataTable
            caption="Breakpoints"
            rows={[...BREAKPOINTS]}
            rowKey={([name]) => name}
            columns={[
              { key: 'name', header: 'Name', rowHeader: true, cell: ([name]) => name },
              { key: 'px', header: 'Min width', numeric: true, cell: ([, px]) => `${px} px` },
            ]}
          />
          <DataTable
            caption="Layers"
            rows={[...LAYERS]}
            rowKey={([name]) => name}
            columns={[
              { key: 'name', header: 'Layer', rowHeader: true, cell: ([name]) => name },
              { key: 'z', header: 'z-index', numeric: true, cell: ([, z]) => z },
            ]}
          />
          <DataTable
            caption="Durations"
            rows={[50, 100, 150, 200, 300, 400, 500]}
            rowKey={(ms) => String(ms)}
            columns={[
              { key: 'token', header: 'Token', rowHeader: true, cell: (ms) => <code>--duration-{ms}</code> },
              { key: 'ms', header: 'Length', numeric: true, cell: (ms) => `${ms} ms` },
            ]}
          />
        </div>
      </Specimen>

      <Specimen id="icons" title="Icons" source="lucide-react (imported by name: only the icons used are bundled)">
        <ul className="icon-grid" aria-label="Icons in use">
          {Object.entries(ICONS).map(([name, Icon]) => (
            <li key={name}>
              <Icon size={24} aria-hidden="true" />
              <span className="small-text">{name}</span>
            </li>
          ))}
        </ul>
      </Specimen>
    </>
  );
}
