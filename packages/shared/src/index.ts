export * from './roles';
export * from './features';
export * from './constants';
export * from './filter-codec';
export * from './time-ranges';
export * from './formatters';
export * from './incidents';
export * from './health';
