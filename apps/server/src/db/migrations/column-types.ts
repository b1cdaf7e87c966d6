import type { Dialect } from '../database';

// The only place migrations branch on the dialect: column types.
export const timestamp = (dialect: Dialect) => (dialect === 'postgres' ? 'timestamptz' : 'text');
export const bigInteger = (dialect: Dialect) => (dialect === 'postgres' ? 'bigint' : 'integer');
