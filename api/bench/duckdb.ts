import { DuckDBConnection, DuckDBInstance, type JS } from '@duckdb/node-api';
import { levelsOf, metrosOf, subIndustriesOf } from '../src/reference/catalog/index.js';
import { NO_AMOUNT, type MeasureId } from '../src/market/engine/participants.js';
import { planMeasures, type EquityOption, type MeasurePlan } from '../src/market/engine/plan.js';
import { amountColumn, type MarketRelease } from '../src/market/engine/release.js';
import type { BenchmarkRequest, MarketFilter } from '../src/market/engine/request.js';

/** One cell as DuckDB computes it, keyed like the engine's cells. */
export interface ReferenceCell {
  employees: number;
  companies: number;
  percentiles: number[];
}

export function cellKey(filter: number, family: string, level: string, type: string, option: EquityOption | null): string {
  return [filter, family, level, type, option ? `${option.intendedVsActual}/${option.view}/${option.timeframe}` : ''].join('|');
}

/** The same release rows in DuckDB, one flat table, for cross-checking and timing exact quantiles. */
export class DuckDbReference {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    private readonly release: MarketRelease,
  ) {}

  static async load(release: MarketRelease, forex: Readonly<Record<string, number>>, measures: MeasureId[]): Promise<DuckDbReference> {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await DuckDBConnection.create(instance);
    const reference = new DuckDbReference(instance, connection, release);
    await reference.createTable(forex, measures);
    return reference;
  }

  private async createTable(forex: Readonly<Record<string, number>>, measures: MeasureId[]): Promise<void> {
    const amounts = measures.map((m) => [m, amountColumn(this.release, m)] as const);
    await this.connection.run(
      `CREATE TABLE records (family UTINYINT, level UTINYINT, company UINTEGER, location UTINYINT, stage UTINYINT,
        ownership UTINYINT, industry UTINYINT, founder UTINYINT, rate DOUBLE, ${measures.map((m) => `${m} INTEGER`).join(', ')})`,
    );
    const { records, companies, dimensions } = this.release;
    const rateOf = dimensions.locationCurrencies.map((currency) => forex[currency] ?? Number.NaN);
    const appender = await this.connection.createAppender('records');
    for (let r = 0; r < this.release.recordCount; r++) {
      const c = records.company[r]!;
      appender.appendUTinyInt(records.family[r]!);
      appender.appendUTinyInt(records.level[r]!);
      appender.appendUInteger(c);
      appender.appendUTinyInt(records.location[r]!);
      appender.appendUTinyInt(companies.stage[c]!);
      appender.appendUTinyInt(companies.ownership[c]!);
      appender.appendUTinyInt(companies.industry[c]!);
      appender.appendUTinyInt(records.founder[r]!);
      appender.appendDouble(rateOf[records.location[r]!]!);
      for (const [, column] of amounts) {
        const amount = column[r]!;
        if (amount === NO_AMOUNT) appender.appendNull();
        else appender.appendInteger(amount);
      }
      appender.endRow();
    }
    appender.flushSync();
    appender.closeSync();
  }

  /** Runs one SQL query per market filter and collects every cell. */
  async query(request: BenchmarkRequest): Promise<Map<string, ReferenceCell>> {
    const plans = planMeasures(request.compensationTypes, request.equity);
    const cells = new Map<string, ReferenceCell>();
    for (const [index, filter] of request.marketFilters.entries()) {
      const reader = await this.connection.runAndReadAll(this.sql(request, filter, plans));
      for (const row of reader.getRowObjectsJS()) this.collect(cells, index, row, plans);
    }
    return cells;
  }

  private sql(request: BenchmarkRequest, filter: MarketFilter, plans: MeasurePlan[]): string {
    const fractions = `[${(request.percentiles ?? [10, 25, 40, 50, 60, 75, 90]).map((p) => p / 100).join(', ')}]`;
    const aggregates = plans.map((plan, k) => {
      // The engine's arithmetic, in its order: amount ÷ USD rate × constant scale.
      const value = `${plan.measure} / rate * ${plan.scale}`;
      return `count(${plan.measure}) AS n${k},
        count(DISTINCT CASE WHEN ${plan.measure} IS NOT NULL THEN company END) AS c${k},
        quantile_cont(${value}, ${fractions}) AS q${k}`;
    });
    return `SELECT family, level, ${aggregates.join(',\n')}
      FROM records
      WHERE ${this.where(request, filter).join('\n AND ')}
      GROUP BY family, level`;
  }

  private where(request: BenchmarkRequest, filter: MarketFilter): string[] {
    const d = this.release.dimensions;
    const codes = (ids: string[], table: readonly string[]): string => {
      const list = ids.map((id) => table.indexOf(id)).filter((code) => code >= 0);
      return list.length > 0 ? list.join(', ') : 'NULL';
    };
    for (const level of request.levels) if (level.type !== 'level') throw new Error('The DuckDB reference groups by plain levels only');
    const clauses = [
      `family IN (${codes(request.jobFamilies, d.families)})`,
      `level IN (${codes(request.levels.flatMap((l) => levelsOf(l.type, l.id)), d.levels)})`,
      `stage IN (${codes(filter.companyStages, d.stages)})`,
      `ownership IN (${codes(filter.companyOwnershipGroups, d.ownershipGroups)})`,
      `industry IN (${codes(filter.industries.flatMap(subIndustriesOf), d.industries)})`,
      `location IN (${codes(filter.locations.flatMap(metrosOf), d.locations)})`,
    ];
    const founders = filter.founderTypes ?? [];
    if (founders.length > 0) {
      const founderCodes = founders.map((id) => d.founderTypes.indexOf(id) + 1).join(', ');
      clauses.push(`(level <> ${d.levels.indexOf('e9')} OR founder IN (${founderCodes}))`);
    }
    return clauses;
  }

  private collect(cells: Map<string, ReferenceCell>, filter: number, row: Record<string, JS>, plans: MeasurePlan[]): void {
    const d = this.release.dimensions;
    const family = d.families[Number(row.family)] ?? '';
    const level = d.levels[Number(row.level)] ?? '';
    plans.forEach((plan, k) => {
      const quantiles = row[`q${k}`];
      cells.set(cellKey(filter, family, level, plan.compensationTypeId, plan.equityOption), {
        employees: Number(row[`n${k}`]),
        companies: Number(row[`c${k}`]),
        percentiles: Array.isArray(quantiles) ? quantiles.map(Number) : [],
      });
    });
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}
