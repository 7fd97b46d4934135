export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';
export type ButtonSize = 'md' | 'sm';

const BASE =
  'inline-flex min-h-11 min-w-11 items-center justify-center gap-2 border-2 font-pixel text-center uppercase leading-normal transition-[transform,box-shadow] duration-75 select-none ' +
  'active:translate-x-[2px] active:translate-y-[2px] active:shadow-pixel-sm disabled:cursor-not-allowed disabled:opacity-60 disabled:active:translate-0';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'border-black bg-gold text-ink-dark shadow-pixel hover:bg-[#f7d27a]',
  secondary: 'border-border bg-panel-raised text-ink shadow-pixel hover:bg-[#372e56]',
  danger: 'border-black bg-danger text-white shadow-pixel hover:bg-[#c9301f]',
  ghost: 'border-transparent bg-transparent text-ink hover:border-border',
};

const SIZES: Record<ButtonSize, string> = {
  md: 'px-5 py-3 text-xs',
  sm: 'px-3 py-2 text-[0.65rem]',
};

/** One look for <button> and <Link>: chunky border, hard shadow, 44 px minimum target. */
export function buttonClassName(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', extra = ''): string {
  return `${BASE} ${VARIANTS[variant]} ${SIZES[size]} ${extra}`.trim();
}
