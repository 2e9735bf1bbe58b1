/**
 * LangGraph control flow that travels as a thrown error: `interrupt()` (GraphInterrupt,
 * NodeInterrupt), `Command({ graph: PARENT })` (ParentCommand), a drain (GraphDrained). These are
 * not failures; duck-typed so the handler does not depend on `@langchain/langgraph`.
 */
const BUBBLE_UP_NAMES = new Set(['GraphInterrupt', 'NodeInterrupt', 'ParentCommand', 'GraphDrained']);

export function isGraphBubbleUp(err: unknown): err is { name: string; interrupts?: unknown } {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { is_bubble_up?: unknown; name?: unknown };
  return e.is_bubble_up === true || (typeof e.name === 'string' && BUBBLE_UP_NAMES.has(e.name));
}

/** The interrupt values of a GraphInterrupt (`[{ value, id }]`), if any. */
export function interruptsOf(err: { interrupts?: unknown }): unknown[] | undefined {
  return Array.isArray(err.interrupts) && err.interrupts.length > 0 ? err.interrupts : undefined;
}
