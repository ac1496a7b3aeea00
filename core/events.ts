// Every event the core emits, as one discriminated union on `type`. The
// types come from the schema (core/event-schema.ts), which is published as
// JSON Schema (`yuj schema events`); this module adds only the emitter, and
// loads no schema at run time.

import type { z } from "zod";
import type {
  approvalDecisionSchema,
  eventBodySchema,
  eventEnvelopeSchema,
  finishReasonSchema,
  todoItemSchema,
  todoStatusSchema,
  usageSchema,
} from "./event-schema.js";

/** Fields every event carries. `seq` is dense from 1 within a session. */
type EventEnvelope = z.infer<typeof eventEnvelopeSchema>;
export type Usage = z.infer<typeof usageSchema>;
export type FinishReason = z.infer<typeof finishReasonSchema>;
export type TodoStatus = z.infer<typeof todoStatusSchema>;
export type TodoItem = z.infer<typeof todoItemSchema>;
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;
/** Every event body, one variant per `type` (core/event-schema.ts documents each field). */
export type EventBody = z.infer<typeof eventBodySchema>;

export type CoreEvent = EventEnvelope & EventBody;
type EventType = EventBody["type"];

/** Events narrowed by type: `EventOf<"tool_result">`. */
export type EventOf<T extends EventType> = EventEnvelope & Extract<EventBody, { type: T }>;

export type Emit = (body: EventBody, extra?: { turn?: number; agentId?: string }) => CoreEvent;

/** Makes an emitter that stamps seq/ts/ids and hands each event to `sink`. */
export function createEmitter(
  sessionId: string,
  sink: (event: CoreEvent) => void,
  now: () => Date = () => new Date(),
  /** The last sequence number already used (a resumed session continues it). */
  lastSeq = 0,
): { emit: Emit; setTurn(turn: number | undefined): void } {
  let seq = lastSeq;
  let currentTurn: number | undefined;
  const emit: Emit = (body, extra) => {
    const envelope: EventEnvelope = {
      seq: ++seq,
      ts: now().toISOString(),
      sessionId,
      agentId: extra?.agentId ?? "main",
    };
    const turn = extra?.turn ?? currentTurn;
    if (turn !== undefined) envelope.turn = turn;
    const event = { ...envelope, ...body } as CoreEvent;
    sink(event);
    return event;
  };
  return {
    emit,
    setTurn(turn) {
      currentTurn = turn;
    },
  };
}
