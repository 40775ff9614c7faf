import type { BenchmarkCell, BenchmarkResult, EquityOption, MarketFilter } from '../engine/index.js';
import type { LevelType } from '../../reference/catalog/index.js';

/** One answered query of a comparison. */
export interface ComparedQuery {
  label: string;
  savedQueryId: string | null;
  marketFilters: readonly MarketFilter[];
  result: BenchmarkResult;
}

/** A column is one market filter of one query. */
export interface CompareColumn {
  queryIndex: number;
  label: string;
  savedQueryId: string | null;
  marketFilterIndex: number;
  marketFilter: MarketFilter;
  currencyMode: BenchmarkResult['currencyMode'];
}

/** A row is one family × level × comp type (× equity option); each column's cell sits at the column's index. */
export interface CompareRow {
  jobFamilyId: string;
  levelType: LevelType;
  levelId: string;
  compensationTypeId: string;
  equityOption: EquityOption | null;
  cells: (BenchmarkCell | null)[];
}

function rowKey(cell: BenchmarkCell): string {
  const option = cell.equityOption;
  return [cell.jobFamilyId, cell.levelType, cell.levelId, cell.compensationTypeId, option?.intendedVsActual ?? '', option?.view ?? '', option?.timeframe ?? ''].join('|');
}

/**
 * Lines the queries' cells up: the same family, level and comp type share a row whichever query
 * asked for it, and a query that did not ask leaves its columns empty (null) in that row. Rows keep
 * the order in which they first appear.
 */
export function alignQueries(queries: readonly ComparedQuery[]): { columns: CompareColumn[]; rows: CompareRow[] } {
  const columns: CompareColumn[] = [];
  const columnOf: number[][] = [];
  queries.forEach((query, queryIndex) => {
    columnOf.push(
      query.marketFilters.map((marketFilter, marketFilterIndex) => {
        columns.push({ queryIndex, label: query.label, savedQueryId: query.savedQueryId, marketFilterIndex, marketFilter, currencyMode: query.result.currencyMode });
        return columns.length - 1;
      }),
    );
  });
  const rows = new Map<string, CompareRow>();
  queries.forEach((query, queryIndex) => {
    for (const cell of query.result.cells) {
      const key = rowKey(cell);
      let row = rows.get(key);
      if (!row) {
        row = {
          jobFamilyId: cell.jobFamilyId,
          levelType: cell.levelType,
          levelId: cell.levelId,
          compensationTypeId: cell.compensationTypeId,
          equityOption: cell.equityOption,
          cells: new Array<BenchmarkCell | null>(columns.length).fill(null),
        };
        rows.set(key, row);
      }
      const column = columnOf[queryIndex]?.[cell.marketFilterIndex];
      if (column !== undefined) row.cells[column] = cell;
    }
  });
  return { columns, rows: [...rows.values()] };
}
