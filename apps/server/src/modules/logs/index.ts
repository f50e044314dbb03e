/** The logs module as the rest of the server sees it: its plugin, the demo files and backend the seed writes, the file reader the bench times. */
export { logsPlugin } from './logs-plugin';
export { appendDemoLogs, DEMO_LOG_BACKEND_NAME, DEMO_LOG_SERVICES, demoLogBackendSpec, writeDemoLogs } from './demo-logs';
export { fetchLogs, type LogsDeps, type LogsRequest } from './log-query';
export { queryFileBackend } from './backends/file-backend';
export type { LogQuery, LogResult } from './backends/types';
