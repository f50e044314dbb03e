/**
 * A generated row type (ADR 0067) with some of its columns read as the shape the code knows them by: a JSON column
 * parsed into its type, or a view column the code knows is set. The other columns keep their generated types, so no
 * column is declared twice.
 */
export type RowWith<Row, Fields extends { [Column in keyof Row]?: unknown }> = Omit<Row, keyof Fields> & Fields;
