/**
 * One `query()` as obs observations, built from the messages it yields: the query is an `agent`;
 * each assistant turn (one Messages API response, which the SDK yields block by block under one
 * message id) a `generation` with its usage as the stream's final `message_delta` reports it;
 * each `tool_use` a `tool` ended by its `tool_result`; an `Agent` (formerly `Task`) tool call a
 * nested `agent` that the subagent's own turns and tools (`parent_tool_use_id`) hang under, ended
 * by its result or, for a subagent run in the background, by its task notification. A `result`
 * message puts the query's totals (cost, turns, duration, usage by model) on the root.
 */
import { type Context, context } from '@opentelemetry/api';
import { type ObsObservation, startObservation } from '@obs/core';
import { activeContextFor, type Dict, isDict, recordErrorOnSpan } from '@obs/core/kit';
import { assistantMessage, claudeUsage, resultContent, userMessages } from './content.js';

/** A thread of the conversation: the main agent's (key '') or one subagent's (its tool use id). */
interface Thread {
  observation: ObsObservation;
  context: Context;
  /** What the thread's next model turn reads: the prompt, then tool results. */
  pending: unknown[];
  turn?: Turn;
  /** The turn whose stream events arrive now (it may have been handed its tool results already). */
  streaming?: Turn;
  /** When the thread last heard from the model or a tool: where its next turn starts. */
  since: Date;
}

interface Turn {
  id: string;
  observation: ObsObservation;
  blocks: Dict[];
  /** Usage as the assistant messages carry it: the stream's start (its output count is not final). */
  usage?: Dict;
  /** Usage as the stream's `message_delta` reports it: final. */
  final?: Dict;
  lastAt: Date;
  /** Its stream events are read: it is finished at `message_stop`, where its usage is final. */
  streamed?: boolean;
  stopped?: boolean;
  /** Its thread went on (a tool ran before the stream's end): finish it at `message_stop`. */
  detached?: boolean;
}

/** The SDK's tool that starts a subagent (`Task` before it was renamed). */
const SUBAGENT_TOOLS = new Set(['Agent', 'Task']);

export interface QueryTraceOptions {
  name?: string;
  metadata?: Record<string, unknown>;
}

export class QueryTrace {
  private readonly threads = new Map<string, Thread>();
  private readonly tools = new Map<string, { observation: ObsObservation; subagent: boolean; background?: boolean }>();
  private readonly root: Thread;
  /** Turns whose thread went on before their stream ended. */
  private readonly detached = new Set<Turn>();
  private ended = false;
  private sawResult = false;

  constructor(prompt: unknown, options: QueryTraceOptions) {
    const observation = startObservation(
      options.name ?? 'claude-agent',
      { input: typeof prompt === 'string' ? prompt : undefined, metadata: options.metadata },
      { asType: 'agent' },
    );
    this.root = {
      observation,
      context: activeContextFor(observation, context.active()),
      pending: typeof prompt === 'string' ? [{ role: 'user', content: prompt }] : [],
      since: new Date(),
    };
    this.threads.set('', this.root);
  }

  /** Reads one message the query yielded. */
  read(message: unknown): void {
    if (this.ended || !isDict(message)) return;
    switch (message['type']) {
      case 'stream_event':
        return this.streamEvent(message);
      case 'assistant':
        return this.assistant(message);
      case 'user':
        return this.user(message);
      case 'result':
        return this.result(message);
      case 'system':
        return this.system(message);
    }
  }

  /** The query ended: what is still open ends with it. `why` says why it ended early. */
  end(outcome: { error?: unknown; stopped?: boolean } = {}): void {
    if (this.ended) return;
    this.ended = true;
    const now = new Date();
    for (const thread of this.threads.values()) this.endTurn(thread, now);
    for (const turn of this.detached) this.finish(turn);
    for (const tool of this.tools.values())
      tool.observation.update({ level: 'WARNING', statusMessage: 'the query ended before the tool returned' }).end(now);
    for (const [key, thread] of this.threads) if (key !== '') thread.observation.end(now);
    const root = this.root.observation;
    if (outcome.error !== undefined) recordErrorOnSpan(root.otelSpan, outcome.error);
    else if (outcome.stopped && !this.sawResult)
      root.update({ level: 'WARNING', statusMessage: 'the caller stopped reading before the result' });
    root.end(now);
  }

  private streamEvent(message: Dict): void {
    const event = message['event'];
    if (!isDict(event)) return;
    const thread = this.thread(message['parent_tool_use_id']);
    if (event['type'] === 'message_start' && isDict(event['message'])) {
      const id = event['message']['id'];
      if (typeof id !== 'string') return;
      const turn = this.turn(thread, id, event['message']);
      turn.streamed = true;
      if (isDict(event['message']['usage'])) turn.usage = event['message']['usage'];
      thread.streaming = turn;
    } else if (event['type'] === 'content_block_start' && thread.turn && thread.turn.blocks.length === 0) {
      thread.turn.observation.update({ completionStartTime: new Date() });
    } else if (event['type'] === 'message_delta' && thread.streaming && isDict(event['usage'])) {
      thread.streaming.final = { ...thread.streaming.final, ...event['usage'] };
    } else if (event['type'] === 'message_stop' && thread.streaming) {
      const turn = thread.streaming;
      thread.streaming = undefined;
      turn.stopped = true;
      if (turn.detached) this.finish(turn);
    }
  }

  private assistant(message: Dict): void {
    const body = message['message'];
    if (!isDict(body) || typeof body['id'] !== 'string') return;
    const thread = this.thread(message['parent_tool_use_id']);
    const turn = this.turn(thread, body['id'], body);
    const now = new Date();
    turn.lastAt = now;
    if (isDict(body['usage'])) turn.usage = body['usage'];
    for (const block of Array.isArray(body['content']) ? body['content'] : []) {
      if (!isDict(block)) continue;
      turn.blocks.push(block);
      if (block['type'] === 'tool_use' && typeof block['id'] === 'string') this.startTool(thread, block);
    }
    if (message['error'] !== undefined) turn.observation.update({ level: 'ERROR', statusMessage: String(message['error']) });
  }

  private user(message: Dict): void {
    const thread = this.thread(message['parent_tool_use_id']);
    this.endTurn(thread, new Date());
    const body = message['message'];
    const content = isDict(body) ? body['content'] : undefined;
    if (Array.isArray(content)) {
      for (const block of content) {
        if (isDict(block) && block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string')
          this.endTool(block, message['tool_use_result']);
      }
    }
    thread.pending.push(...userMessages(body));
    thread.since = new Date();
  }

  private result(message: Dict): void {
    this.sawResult = true;
    const now = new Date();
    for (const thread of this.threads.values()) this.endTurn(thread, now);
    const failed = message['is_error'] === true || (typeof message['subtype'] === 'string' && message['subtype'] !== 'success');
    this.root.observation.update({
      output: typeof message['result'] === 'string' ? message['result'] : undefined,
      metadata: {
        session_id: message['session_id'],
        num_turns: message['num_turns'],
        duration_ms: message['duration_ms'],
        duration_api_ms: message['duration_api_ms'],
        total_cost_usd: message['total_cost_usd'],
        model_usage: message['modelUsage'],
        stop_reason: message['stop_reason'],
      },
      ...(failed
        ? {
            level: 'ERROR' as const,
            statusMessage:
              Array.isArray(message['errors']) && message['errors'].length > 0 ? message['errors'].join('; ') : String(message['subtype']),
          }
        : {}),
    });
  }

  private system(message: Dict): void {
    const subtype = message['subtype'];
    if (subtype === 'init') {
      this.root.observation.update({
        metadata: { session_id: message['session_id'], model: message['model'], claude_code_version: message['claude_code_version'] },
      });
    } else if (subtype === 'task_started' && typeof message['tool_use_id'] === 'string') {
      const tool = this.tools.get(message['tool_use_id']);
      if (tool && message['is_backgrounded'] === true) tool.background = true;
    } else if (subtype === 'task_notification' && typeof message['tool_use_id'] === 'string') {
      const id = message['tool_use_id'];
      const tool = this.tools.get(id);
      if (!tool) return;
      this.tools.delete(id);
      const thread = this.threads.get(id);
      if (thread) this.endTurn(thread, new Date());
      this.threads.delete(id);
      tool.observation.update({
        output: message['summary'],
        metadata: { task_usage: message['usage'], status: message['status'] },
        ...(message['status'] === 'completed' ? {} : { level: 'WARNING' as const, statusMessage: `subagent ${String(message['status'])}` }),
      });
      tool.observation.end();
    }
  }

  /** The open turn with this message id, or a new one (the previous turn of the thread ends). */
  private turn(thread: Thread, id: string, body: Dict): Turn {
    if (thread.turn?.id === id) return thread.turn;
    const now = new Date();
    this.endTurn(thread, now);
    const observation = startObservation(
      'assistant',
      {
        model: typeof body['model'] === 'string' ? body['model'] : undefined,
        input: thread.pending.length > 0 ? thread.pending : undefined,
      },
      { asType: 'generation', parentContext: thread.context, startTime: thread.since },
    );
    thread.pending = [];
    thread.turn = { id, observation, blocks: [], lastAt: now };
    return thread.turn;
  }

  /** The thread's turn is over for the conversation; its observation ends once its usage is final. */
  private endTurn(thread: Thread, now: Date): void {
    const turn = thread.turn;
    if (!turn) return;
    thread.turn = undefined;
    thread.since = turn.lastAt ?? now;
    if (turn.streamed && !turn.stopped && !this.ended) {
      turn.detached = true;
      this.detached.add(turn);
    } else this.finish(turn);
  }

  private finish(turn: Turn): void {
    this.detached.delete(turn);
    turn.observation.update({ output: assistantMessage(turn.blocks), usageDetails: claudeUsage({ ...turn.usage, ...turn.final }) });
    turn.observation.end(turn.lastAt);
  }

  private startTool(thread: Thread, block: Dict): void {
    const id = block['id'] as string;
    if (this.tools.has(id)) return;
    const name = typeof block['name'] === 'string' ? block['name'] : 'tool';
    const input = isDict(block['input']) ? block['input'] : {};
    const subagent = SUBAGENT_TOOLS.has(name);
    const observation = subagent
      ? startObservation(
          typeof input['subagent_type'] === 'string' ? input['subagent_type'] : 'subagent',
          { input: input['prompt'] ?? input, metadata: { tool: name, tool_use_id: id, description: input['description'] } },
          { asType: 'agent', parentContext: thread.context },
        )
      : startObservation(name, { input: block['input'], metadata: { tool_use_id: id } }, { asType: 'tool', parentContext: thread.context });
    this.tools.set(id, { observation, subagent });
    if (subagent) {
      const prompt = input['prompt'];
      this.threads.set(id, {
        observation,
        context: activeContextFor(observation, thread.context),
        pending: typeof prompt === 'string' ? [{ role: 'user', content: prompt }] : [],
        since: new Date(),
      });
    }
  }

  private endTool(block: Dict, structured: unknown): void {
    const id = block['tool_use_id'] as string;
    const tool = this.tools.get(id);
    if (!tool) return;
    // A subagent in the background answers "launched" at once; its task notification ends it.
    if (tool.subagent && tool.background) return;
    this.tools.delete(id);
    if (tool.subagent) {
      const thread = this.threads.get(id);
      if (thread) this.endTurn(thread, new Date());
      this.threads.delete(id);
    }
    const output = tool.subagent ? resultContent(block['content']) : (structured ?? resultContent(block['content']));
    tool.observation.update({
      output,
      ...(block['is_error'] === true ? { level: 'ERROR' as const, statusMessage: String(resultContent(block['content'])) } : {}),
    });
    tool.observation.end();
  }

  private thread(parentToolUseId: unknown): Thread {
    return (typeof parentToolUseId === 'string' ? this.threads.get(parentToolUseId) : undefined) ?? this.root;
  }
}
