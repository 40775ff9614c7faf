/** Timestamps come back as text from SQLite and as Date from Postgres; the contract wants ISO-8601. */
export const isoTimestamp = (value: string | Date): string => new Date(value).toISOString();

export const isoTimestampOrNull = (value: string | Date | null | undefined): string | null => (value ? isoTimestamp(value) : null);
