import { PROGRESS_TEXT_CLASSES, progressColor, roundedUptime, formatUptimePercentage } from '../utils/check-format';

export interface UptimeTextProps {
  /** Passed runs as a percentage of all runs; null when the check did not run in the range. */
  percentage: number | null;
  /** Shown without runs. */
  empty?: string;
}

/** An uptime coloured by the progress thresholds (spec 001 §9), the colour taken from the figure as shown. */
export function UptimeText({ percentage, empty = '–' }: UptimeTextProps) {
  if (percentage === null) return <span>{empty}</span>;
  const shown = roundedUptime(percentage);
  return (
    <span data-color={progressColor(shown)} className={PROGRESS_TEXT_CLASSES[progressColor(shown)]}>
      {formatUptimePercentage(shown)}
    </span>
  );
}
