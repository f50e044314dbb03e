export { demoInboxPlugin, DEMO_INBOX_HOOKS_PATH, DEMO_INBOX_SOURCE } from './demo-inbox-plugin';
