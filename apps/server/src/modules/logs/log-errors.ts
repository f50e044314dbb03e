import { AppError } from '../../platform/errors';
import { LOG_BACKEND_TYPES, LOG_LINES_MAX_LIMIT } from '@opsdeck/shared';

/** The coded errors of log backends (saving one) and of the logs call; `details` names the field or parameter at fault. */
export const logErrors = {
  spec: (field: string, problem: string) =>
    new AppError(
      400,
      'OD_LOG_BACKEND_SPEC',
      `The log backend spec is not valid: ${field} ${problem}`,
      field,
      `Give routes and exactly one of ${LOG_BACKEND_TYPES.join(', ')}; GET /api/logs/schema describes every field`,
    ),
  name: () => new AppError(400, 'OD_LOG_BACKEND_SPEC', 'The log backend needs a name', 'name', 'Give the backend a name; the logs page lists it under that name'),
  path: (field: string, problem: string, roots: readonly string[]) =>
    new AppError(
      400,
      'OD_LOG_BACKEND_PATH',
      `The log backend may not read ${field}: ${problem}`,
      field,
      roots.length === 0
        ? 'This server reads no log files: set OPSDECK_LOG_ROOTS to the folders it may read'
        : 'Write the path relative to a log root (OPSDECK_LOG_ROOTS)',
    ),
  connection: (field: string, problem: string) =>
    new AppError(
      400,
      'OD_LOG_BACKEND_CONNECTION',
      `The log backend's connection is not valid: ${problem}`,
      field,
      "Name an existing connection (connection://namespace/name or its id) whose URL has the backend url's scheme, host and port",
    ),
  id: (problem: string) =>
    new AppError(400, 'OD_LOGS_ID', `Logs need the id of a component or configuration item: ${problem}`, 'id', 'Pass id=<component or config item uuid>'),
  subject: (id: string) =>
    new AppError(404, 'OD_LOGS_NOT_FOUND', `No component or configuration item has the id ${id}`, 'id', 'Pick a component or item that exists and is not deleted'),
  selector: (name: string, known: readonly string[]) =>
    new AppError(
      404,
      'OD_LOGS_SELECTOR',
      name === '' ? 'This component or item has no log selector' : `This component or item has no log selector named '${name}'`,
      'name',
      known.length === 0 ? 'Add a log backend whose routes match it' : `Choose one of ${known.join(', ')}`,
    ),
  start: (value: string) =>
    new AppError(
      400,
      'OD_LOGS_START',
      `start '${value}' is not a time`,
      'start',
      'Give a time-range key (15m, 1h, 1d, 1w, 1mo…), date math (now-1h) or an ISO 8601 timestamp in the past',
    ),
  limit: (value: string) =>
    new AppError(400, 'OD_LOGS_LIMIT', `limit '${value}' is out of range`, 'limit', `Give a whole number from 1 to ${LOG_LINES_MAX_LIMIT}`),
  template: (field: string, problem: string) =>
    new AppError(
      422,
      'OD_LOGS_TEMPLATE',
      `The log backend's ${field} template cannot be used for this component or item: ${problem}`,
      field,
      'Fix the template in the log backend spec, or the labels of the component or item it reads',
    ),
  unreachable: (backend: string, problem: string) =>
    new AppError(
      502,
      'OD_LOG_BACKEND_UNREACHABLE',
      `The log backend '${backend}' did not answer: ${problem}`,
      null,
      "Check the backend's URL, connection and that the service is up; the server's log has no more than this",
    ),
};
