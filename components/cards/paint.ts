// Colour for the cards: own SGR pairs instead of chalk, because chalk decides
// by the process's TTY and the cards decide by opts.color; each style closes
// only what it opened, so styles nest (bold inside a coloured line stays
// coloured after it). Colour is applied to text already made safe
// (core/text/safe.ts), never before.

export type Paint = (s: string) => string;
const sgr =
  (open: string, close: string) =>
  (on: boolean): Paint =>
    on ? (s) => (s === "" ? s : `\x1b[${open}m${s}\x1b[${close}m`) : (s) => s;

const styles = {
  bold: sgr("1", "22"),
  dim: sgr("2", "22"),
  italic: sgr("3", "23"),
  underline: sgr("4", "24"),
  inverse: sgr("7", "27"),
  strike: sgr("9", "29"),
  red: sgr("31", "39"),
  green: sgr("32", "39"),
  yellow: sgr("33", "39"),
  blue: sgr("34", "39"),
  magenta: sgr("35", "39"),
  cyan: sgr("36", "39"),
  gray: sgr("90", "39"),
  badgeBlue: sgr("1;37;44", "22;39;49"),
  badgeMagenta: sgr("1;37;45", "22;39;49"),
  badgeCyan: sgr("1;30;46", "22;39;49"),
  badgeGreen: sgr("1;30;42", "22;39;49"),
  badgeYellow: sgr("1;30;43", "22;39;49"),
  badgeRed: sgr("1;37;41", "22;39;49"),
  badgeGray: sgr("1;37;100", "22;39;49"),
};

/** The styles bound to one colour setting, so call sites read `p.red(x)`. */
export type Palette = { [K in keyof typeof styles]: Paint };
const palettes = new Map<boolean, Palette>();
export function palette(color: boolean): Palette {
  let p = palettes.get(color);
  if (!p) {
    p = Object.fromEntries(Object.entries(styles).map(([k, f]) => [k, f(color)])) as Palette;
    palettes.set(color, p);
  }
  return p;
}
