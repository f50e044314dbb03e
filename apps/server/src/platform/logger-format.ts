export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * LOG_FORMAT wins. Otherwise a person at a terminal gets one readable line per event, and anything else (a pipe, a
 * file, a container's log collector) gets JSON lines that tools can parse.
 */
export function chooseLogFormat(forced: LogFormat | undefined, stdoutIsTty: boolean): LogFormat {
  return forced ?? (stdoutIsTty ? 'pretty' : 'json');
}

/** Colour only reaches a terminal, and NO_COLOR (https://no-color.org) turns it off there too. */
export function wantsColour(stdoutIsTty: boolean, env: NodeJS.ProcessEnv): boolean {
  return stdoutIsTty && (env.NO_COLOR ?? '') === '';
}
