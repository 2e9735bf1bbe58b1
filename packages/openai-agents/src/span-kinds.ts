/**
 * What each kind of Agents SDK span becomes in obs: its observation's name and type when it
 * starts, and what it adds when it ends (the SDK fills a span's data while it runs). `task` (the
 * run) and `turn` (one model call and the tools it asked for) add no observation: their children
 * hang under the agent, so a run reads as agents, their generations, tools and handoffs.
 */
import type { ObservationType, ObsObservationAttributes } from '@obs/core';
import { dict, type Dict, nonEmptyString, parseJsonValue, pick } from '@obs/core/kit';
import { generationCall, responseCall } from './model-call.js';

/** An observation to start for a span, or `undefined` for a span obs folds into its parent. */
export interface SpanStart {
  name: string;
  type: ObservationType;
  attributes?: ObsObservationAttributes;
}

/** Span kinds that are not observations of their own. */
const FOLDED = new Set(['task', 'turn']);

export function spanStart(data: Dict): SpanStart | undefined {
  const type = data['type'];
  if (typeof type !== 'string' || FOLDED.has(type)) return undefined;
  const name = typeof data['name'] === 'string' ? data['name'] : undefined;
  switch (type) {
    case 'agent':
      return { name: name ?? 'agent', type: 'agent' };
    case 'function':
      return { name: name ?? 'function', type: 'tool' };
    case 'response':
    case 'generation':
    case 'transcription':
    case 'speech':
      return { name: type, type: 'generation' };
    case 'handoff':
      return { name: handoffName(data), type: 'span' };
    case 'guardrail':
      return { name: name ?? 'guardrail', type: 'guardrail' };
    case 'mcp_tools':
      return { name: `tools/list${typeof data['server'] === 'string' ? ` ${data['server']}` : ''}`, type: 'span' };
    default:
      return { name: name ?? type, type: 'span' };
  }
}

/** What a span's data says once it ended. */
export function spanEnd(data: Dict): { name?: string; attributes: ObsObservationAttributes } {
  switch (data['type']) {
    case 'agent':
      return { attributes: { metadata: pick(data, ['tools', 'handoffs', 'output_type']) } };
    case 'function':
      return {
        attributes: {
          input: parseJsonValue(data['input']),
          output: parseJsonValue(data['output']),
          metadata: data['mcp_data'] !== undefined ? { mcp: parseJsonValue(data['mcp_data']) } : undefined,
        },
      };
    case 'response':
      return { attributes: responseCall(data) };
    case 'generation':
      return { attributes: generationCall(data) };
    case 'transcription':
      // The audio stays out (base64 PCM); the text and the model are what a reader needs.
      return { attributes: { model: nonEmptyString(data['model']), output: data['output'], modelParameters: modelConfig(data) } };
    case 'speech':
      return { attributes: { model: nonEmptyString(data['model']), input: data['input'], modelParameters: modelConfig(data) } };
    case 'handoff':
      return { name: handoffName(data), attributes: { metadata: pick(data, ['from_agent', 'to_agent']) } };
    case 'guardrail': {
      const triggered = data['triggered'] === true;
      return {
        attributes: {
          output: { triggered },
          ...(triggered ? { level: 'WARNING' as const, statusMessage: 'tripwire triggered' } : {}),
        },
      };
    }
    case 'mcp_tools':
      return { attributes: { output: data['result'], metadata: pick(data, ['server']) } };
    case 'custom':
      return { attributes: { metadata: data['data'] } };
    case 'speech_group':
      return { attributes: { input: data['input'] } };
    default:
      return { attributes: {} };
  }
}

/** `handoff Triage -> Writer`: the target is known once the handoff ended. */
function handoffName(data: Dict): string {
  const from = nonEmptyString(data['from_agent']);
  const to = nonEmptyString(data['to_agent']);
  return `handoff ${from ?? '?'} -> ${to ?? '?'}`;
}

function modelConfig(data: Dict): Record<string, unknown> | undefined {
  const config = dict(data['model_config']);
  return Object.keys(config).length > 0 ? config : undefined;
}
