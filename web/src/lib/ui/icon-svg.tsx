// icon-svg.tsx: the frame every line icon is drawn in (24×24, stroked in the text colour, rounded
// joins), decorative: the control that holds an icon carries the accessible name. icons.tsx draws
// the app's icons in it; a feature draws its own (voice, reviews, session facts) in it too.
import type { SVGProps } from 'react';

export type IconProps = SVGProps<SVGSVGElement> & { size?: number };

export function IconSvg({ size = 20, children, ...rest }: IconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {children}
    </svg>
  );
}
