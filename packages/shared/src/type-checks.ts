/**
 * `true` when A and B are the same type, `false` otherwise. Mutual assignability is not enough: `any` and optional
 * members would slip through, so the two are compared the way the compiler compares deferred conditional types.
 */
export type SameType<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when given `true`: `type _Check = Expect<SameType<A, B>>` fails the build when A and B part. */
export type Expect<T extends true> = T;
