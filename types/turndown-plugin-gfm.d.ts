// turndown-plugin-gfm ships no types; this is the part yuj uses.
declare module "turndown-plugin-gfm" {
  import type TurndownService from "turndown";
  export const gfm: TurndownService.Plugin;
}
