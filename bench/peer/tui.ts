// Placeholder until the TUI side-by-side runs exist.
export async function peerTui(_codexBin: string, _yujBin: string, _runs: number): Promise<Array<[string, number, number, string, (x: number) => string]>> {
  return [];
}
