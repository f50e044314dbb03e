export * from './roles';
export * from './features';
