// ddl.ts: each dialect's CREATE statements, derived from tables.ts. PostgreSQL gets BIGINT times and
// BOOLEAN flags; SQLite stores both as INTEGER (what its shipped migrations made). Every name is
// quoted: `user`, `offset` and `rows` are keywords in one dialect or the other.
import type { Column, ColumnType, Table } from './tables.ts';

export type Dialect = 'sqlite' | 'postgres';

const TYPES: Record<Dialect, Record<ColumnType, string>> = {
  sqlite: { text: 'TEXT', json: 'TEXT', int: 'INTEGER', bigint: 'INTEGER', time: 'INTEGER', bool: 'INTEGER', bytes: 'BLOB' },
  postgres: { text: 'TEXT', json: 'TEXT', int: 'INTEGER', bigint: 'BIGINT', time: 'BIGINT', bool: 'BOOLEAN', bytes: 'BYTEA' },
};

const quote = (name: string) => `"${name}"`;
const list = (names: readonly string[]) => names.map(quote).join(', ');

function literal(dialect: Dialect, value: number | boolean | string): string {
  if (typeof value === 'number') return String(value);
  // Only our own constants reach here (tables.ts, migrations.ts), never input.
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  if (dialect === 'postgres') return value ? 'TRUE' : 'FALSE';
  return value ? '1' : '0';
}

/** One column as CREATE TABLE (and ALTER TABLE … ADD COLUMN) writes it. */
export function columnSql(dialect: Dialect, column: Column): string {
  const parts = [quote(column.name), TYPES[dialect][column.type]];
  if (!column.nullable) parts.push('NOT NULL');
  if (column.default !== undefined) parts.push(`DEFAULT ${literal(dialect, column.default)}`);
  return parts.join(' ');
}

function createTable(dialect: Dialect, table: Table): string[] {
  // A one-column key is declared on its column, as the shipped migrations did (in SQLite that also
  // leaves it nullable, as in every database made so far; PostgreSQL's keys are never null).
  const ownKey = table.primaryKey.length === 1 ? table.primaryKey[0] : undefined;
  const lines = table.columns.map((column) => {
    const target = table.references?.[column.name];
    if (column.name === ownKey) return `${quote(column.name)} ${TYPES[dialect][column.type]} PRIMARY KEY`;
    return target ? `${columnSql(dialect, column)} REFERENCES ${quote(target)}("id") ON DELETE CASCADE` : columnSql(dialect, column);
  });
  if (!ownKey) lines.push(`PRIMARY KEY (${list(table.primaryKey)})`);
  for (const columns of table.unique ?? []) lines.push(`UNIQUE (${list(columns)})`);
  const rowid = dialect === 'sqlite' && table.withoutRowid ? ' WITHOUT ROWID' : '';
  const statements = [`CREATE TABLE ${quote(table.name)} (\n  ${lines.join(',\n  ')}\n)${rowid}`];
  for (const index of table.indexes ?? []) statements.push(`CREATE INDEX ${quote(index.name)} ON ${quote(table.name)}(${list(index.columns)})`);
  return statements;
}

/** Every statement that makes the whole schema in an empty database. */
export function createSchema(dialect: Dialect, tables: readonly Table[]): string[] {
  return tables.flatMap((table) => createTable(dialect, table));
}
