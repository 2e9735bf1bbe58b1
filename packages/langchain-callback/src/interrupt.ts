/**
 * LangGraph control flow that travels as a thrown error: `interrupt()` (GraphInterrupt,
 * NodeInterrupt), `Command({ graph: PARENT })` (ParentCommand), a drain (GraphDrained). These are
 * not failures; duck-typed so the handler does not depend on `@langchain/langgraph`.
 */
const BUBBLE_UP_NAMES = new Set(['GraphInterrupt', 'NodeInterrupt', 'ParentCommand', 'GraphDrained']);

/** What a LangGraph bubble-up says: its name and its interrupt values (`[{ value, id }]`), if any. */
export interface GraphBubbleUp {
  name: string;
  interrupts: unknown[] | undefined;
}

/** The LangGraph control flow `err` is, or undefined for a real error (or one that cannot be read). */
export function graphBubbleUp(err: unknown): GraphBubbleUp | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  try {
    const e = err as { is_bubble_up?: unknown; name?: unknown; interrupts?: unknown };
    const name = typeof e.name === 'string' ? e.name : '';
    if (e.is_bubble_up !== true && !BUBBLE_UP_NAMES.has(name)) return undefined;
    const interrupts = e.interrupts;
    return { name, interrupts: Array.isArray(interrupts) && interrupts.length > 0 ? interrupts : undefined };
  } catch {
    return undefined;
  }
}
