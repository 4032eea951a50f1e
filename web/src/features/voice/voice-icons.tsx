// voice-icons.tsx: the microphone and the speaker, inline SVG in lib/ui/icon-svg.tsx's frame, kept here so
// they load with the voice controls and not on the first load. Decorative: the button is named.
import { IconSvg as Svg, type IconProps } from '../../lib/ui/icon-svg.tsx';

export const IconMic = (p: IconProps) => (
  <Svg {...p}>
    <rect x="9" y="3" width="6" height="11" rx="3" />
    <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
  </Svg>
);

export const IconSpeaker = ({ on, ...p }: IconProps & { on: boolean }) => (
  <Svg {...p}>
    <path d="M4 9v6h4l5 4V5L8 9H4z" />
    {on ? <path d="M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12" /> : <path d="M17 9l5 6M22 9l-5 6" />}
  </Svg>
);
