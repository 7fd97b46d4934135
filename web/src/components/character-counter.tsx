import { MESSAGE_MAX, MESSAGE_WARN_ABOVE } from '@pixel-atlas/contracts/plots';

/** 'n/140', turning red above 130 (ARCHITECTURE.md section 7). */
export function CharacterCounter({
  id,
  count,
  max = MESSAGE_MAX,
  warnAbove = MESSAGE_WARN_ABOVE,
}: {
  id?: string;
  count: number;
  max?: number;
  warnAbove?: number;
}) {
  const warning = count > warnAbove;
  return (
    <p
      id={id}
      aria-live="polite"
      data-warning={warning}
      className={`text-right text-xs tabular-nums ${warning ? 'font-semibold text-danger-text' : 'text-ink-muted'}`}
    >
      {count}/{max}
    </p>
  );
}
