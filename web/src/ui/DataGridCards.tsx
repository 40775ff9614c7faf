import type { Virtualizer } from '@tanstack/react-virtual';
import { Fragment, type ReactNode, type RefObject } from 'react';
import type { Column, RowAttributes } from './DataTable';
import { headerText } from './DataGridHead';

interface CardsProps<Row> {
  label: string;
  regionLabel: string;
  className?: string;
  shown: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowName?: (row: Row) => string;
  rowAttributes?: (row: Row) => RowAttributes;
  onOpen?: (row: Row) => void;
  scroller: RefObject<HTMLDivElement | null>;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  /** The selection and bulk actions bar, when rows can be selected. */
  bar?: ReactNode;
}

/** Phones: one card per row, the first column leading and the others as terms; a card opens its row. */
export function DataGridCards<Row>({ label, regionLabel, className, shown, rows, rowKey, rowName, rowAttributes, onOpen, scroller, virtualizer, bar }: CardsProps<Row>) {
  const [first, ...rest] = shown;
  return (
    <div className="dgrid-host">
      {bar}
      <div ref={scroller} className="dgrid-scroll dgrid-cards-scroll" tabIndex={0} role="region" aria-label={regionLabel}>
        <ul className="dgrid-cards" aria-label={label} style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index] as Row;
            const key = rowKey(row);
            const body = (
              <>
                <span className="name">{first ? first.cell(row) : key}</span>
                <dl>
                  {rest.map((column) => (
                    <Fragment key={column.key}>
                      <dt>{headerText(column)}</dt>
                      <dd>{column.cell(row)}</dd>
                    </Fragment>
                  ))}
                </dl>
              </>
            );
            return (
              <li key={key} className={className ? `dgrid-card ${className}` : 'dgrid-card'} data-index={item.index} ref={virtualizer.measureElement} style={{ transform: `translateY(${item.start}px)` }} {...rowAttributes?.(row)}>
                {onOpen ? (
                  <button type="button" className="dgrid-card-body" onClick={() => onOpen(row)} aria-label={`Open ${rowName?.(row) ?? key}`}>
                    {body}
                  </button>
                ) : (
                  <div className="dgrid-card-body">{body}</div>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}
