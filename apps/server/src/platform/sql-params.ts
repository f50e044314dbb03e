/** A type name a placeholder may be cast to: letters, digits, underscores and spaces (`double precision`), `[]` for arrays. */
const CAST = /^[a-z_][a-z0-9_]*(?: [a-z_][a-z0-9_]*)*(?:\[\])*$/;

/**
 * Collects a statement's bound values and answers their placeholders, numbered from $1 in the order they are added, so
 * SQL is assembled from constant fragments without splicing any value into it.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  /**
   * Binds `value` as the next parameter. With `cast` the placeholder carries that type (`$3::uuid[]`), for where
   * PostgreSQL cannot infer one; the cast is SQL text, so only a type name written in the code is accepted.
   */
  add(value: unknown, cast?: string): string {
    if (cast !== undefined && !CAST.test(cast)) throw new Error(`'${cast}' is not a type name a placeholder can be cast to`);
    this.values.push(value);
    const placeholder = `$${this.values.length}`;
    return cast === undefined ? placeholder : `${placeholder}::${cast}`;
  }
}
