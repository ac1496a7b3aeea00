// Why a tool call was stopped before it finished, when it was not the user:
// the abort's reason carries the text the call's result starts with, so the
// model learns what stopped it (a code cell's deadline) rather than being
// told the user cancelled.

export class StopReason {
  constructor(readonly text: string) {}
}

/** The first line of a result whose call `signal` stopped. */
export function stoppedText(signal: AbortSignal, cancelledText: string): string {
  return signal.reason instanceof StopReason ? signal.reason.text : cancelledText;
}
