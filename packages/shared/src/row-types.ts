import type { Database } from './database.generated';

/**
 * A generated row type (ADR 0067) with some of its columns read as the shape the code knows them by: a JSON column
 * parsed into its type, or a view column the code knows is set. The other columns keep their generated types, so no
 * column is declared twice.
 */
export type RowWith<Row, Fields extends { [Column in keyof Row]?: unknown }> = Omit<Row, keyof Fields> & Fields;

type PublicFunctions = Database['public']['Functions'];

/**
 * A row a set-returning function of the data API answers (`/api/db/rpc/<name>`): the generated `Returns` has no
 * `Row` of its own, so this names one element of it the way `ViewRow` names a view's.
 */
export type FunctionRow<Name extends keyof PublicFunctions> = PublicFunctions[Name]['Returns'] extends readonly (infer Row)[] ? Row : never;
