/**
 * AI SDK 7 traces only through a telemetry integration registered with it (`registerTelemetry`
 * or per call), where 5 and 6 traced with `experimental_telemetry: { isEnabled: true }` alone. So
 * when the app's `ai` is 7 or later and no integration is registered, obs registers
 * `@ai-sdk/otel`'s OpenTelemetry integration itself, as a stand-in that steps aside as soon as the
 * app registers one of its own (before or after obs: the SDK reads its registry on every call).
 * Without `@ai-sdk/otel` installed it cannot; it then says once, at start, what to add. The
 * integration itself (`@ai-sdk/otel` pulls in `ai` and zod: about 100 ms of a cold start) is loaded
 * only when the AI SDK first reads the stand-in, that is at the app's first AI SDK call. Whichever
 * integration traces, obs's entry also runs each model call through `genai/ai-sdk-stream.ts`
 * (first in the registry, so inside the tracing integration's model-call context): a stream the
 * caller cancels keeps its text so far and its completion start. Per-call `integrations` replace
 * the registered ones, obs's included.
 */
import { observeModelCall } from '../genai/ai-sdk-stream.js';
import { logger } from '../util/logger.js';
import { isNodeRuntime, nodeBuiltin } from '../util/runtime.js';
import { unref } from '../util/unref.js';

type Integration = Record<string | symbol, unknown>;
type Registry = { AI_SDK_TELEMETRY_INTEGRATIONS?: Integration[] };
type Require = ((id: string) => unknown) & { resolve(id: string): string };
type CreateRequire = (from: string) => Require;

/** The line that makes AI SDK 7 trace, for the app to add when obs cannot. */
export const AI_SDK_TELEMETRY_LINE =
  "npm install @ai-sdk/otel, then once at start-up: registerTelemetry(new OpenTelemetry()) (registerTelemetry from 'ai', OpenTelemetry from '@ai-sdk/otel')";

/**
 * Registers the stand-in when the app's `ai` is >= 7 and nothing is registered; returns what
 * removes it again (at shutdown). Never throws.
 */
export function registerAiSdkTelemetry(): () => void {
  try {
    if (!isNodeRuntime()) return noop;
    const requires = appRequires();
    const ai = findPackage(requires, 'ai');
    if (!ai || major(ai.version) < 7) return noop;
    const registry = globalThis as Registry;
    // The app registered its own: obs only observes the model calls' streams.
    if ((registry.AI_SDK_TELEMETRY_INTEGRATIONS ?? []).length > 0) return register(registry, standInFor(registry));
    const otel = findPackage(requires, '@ai-sdk/otel');
    if (!otel) {
      // After the start-up code that runs with initObs, which may register an integration itself.
      unref(
        setTimeout(() => {
          if ((registry.AI_SDK_TELEMETRY_INTEGRATIONS ?? []).length > 0) return;
          logger.warn(
            `AI SDK ${ai.version} traces only through a telemetry integration, and none is registered: its calls will not reach obs. Add: ${AI_SDK_TELEMETRY_LINE}`,
          );
        }, 0),
      );
      return noop;
    }
    logger.debug(`AI SDK ${ai.version}: obs registered @ai-sdk/otel's OpenTelemetry integration (no other was registered)`);
    return register(registry, standInFor(registry, otel));
  } catch (err) {
    logger.warn(`obs could not register the AI SDK's telemetry integration (${String(err)}); add: ${AI_SDK_TELEMETRY_LINE}`);
    return noop;
  }
}

/** `@ai-sdk/otel`'s integration, or `undefined` (logged once) when it cannot be loaded. */
function loadIntegration(otel: FoundPackage): Integration | undefined {
  try {
    // Node.js >= 22.12 loads the ES module synchronously, as the app's own import would; required
    // from inside node_modules, so that no Node.js version calls it experimental.
    const { OpenTelemetry } = otel.requireFromPackage('@ai-sdk/otel') as {
      OpenTelemetry: new (options: { usage: boolean; embedding: boolean }) => Integration;
    };
    // usage: reasoning tokens too; embedding: embed()'s values as its input (and the vectors, as
    // AI SDK 5 and 6 record them by default).
    return new OpenTelemetry({ usage: true, embedding: true });
  } catch (err) {
    // E.g. @ai-sdk/otel could not be loaded synchronously: AI SDK 7 calls go untraced.
    logger.warn(`obs could not load the AI SDK's telemetry integration (${String(err)}); add: ${AI_SDK_TELEMETRY_LINE}`);
    return undefined;
  }
}

/** Puts obs's entry first in the registry; returns what takes it out. */
function register(registry: Registry, standIn: Integration): () => void {
  (registry.AI_SDK_TELEMETRY_INTEGRATIONS ??= []).unshift(standIn);
  return () => {
    const list = registry.AI_SDK_TELEMETRY_INTEGRATIONS;
    const i = list ? list.indexOf(standIn) : -1;
    if (i >= 0) list!.splice(i, 1);
  };
}

type ExecuteOptions = { execute: () => PromiseLike<unknown> } & Record<string, unknown>;

/**
 * The integration of `otel` (none without it), loaded on the first read while it is the only one
 * registered; once the app registers another, only the observer of model calls (`executeLanguageModelCall`).
 */
function standInFor(registry: Registry, otel?: FoundPackage): Integration {
  let integration: Integration | undefined;
  let loaded = false;
  const observe = (options: ExecuteOptions) => observeModelCall(options.execute);
  const standIn: Integration = new Proxy(
    {},
    {
      get(_target, key) {
        const alone = !(registry.AI_SDK_TELEMETRY_INTEGRATIONS ?? []).some((i) => i !== standIn);
        if (alone && !loaded) {
          loaded = true;
          integration = otel && loadIntegration(otel);
        }
        if (!alone || !integration) return key === 'executeLanguageModelCall' ? observe : undefined;
        const value = integration[key];
        if (key === 'executeLanguageModelCall')
          return typeof value === 'function'
            ? (options: ExecuteOptions) => value.call(integration, { ...options, execute: () => observeModelCall(options.execute) })
            : observe;
        return typeof value === 'function' ? value.bind(integration) : value;
      },
    },
  );
  return standIn;
}

function createRequireFn(): CreateRequire | undefined {
  return nodeBuiltin<{ createRequire: CreateRequire }>('node:module')?.createRequire;
}

/** Resolvers from the app's entry script and its working directory. */
function appRequires(): Require[] {
  const createRequire = createRequireFn();
  if (!createRequire) return [];
  const from = [process.argv[1], `${process.cwd()}/package.json`].filter((p): p is string => typeof p === 'string' && p !== '');
  return from.map((p) => createRequire(p));
}

/** A package the app resolves: its version, and a require() from inside it. */
interface FoundPackage {
  version: string;
  requireFromPackage: Require;
}

/** The package as the first of `requires` that resolves `name` finds it. */
function findPackage(requires: Require[], name: string): FoundPackage | undefined {
  const createRequire = createRequireFn();
  for (const require of requires) {
    try {
      const path = require.resolve(`${name}/package.json`);
      const pkg = require(path) as { version?: unknown };
      if (typeof pkg.version === 'string' && createRequire) return { version: pkg.version, requireFromPackage: createRequire(path) };
    } catch {
      // not resolvable from there
    }
  }
  return undefined;
}

function major(version: string): number {
  return Number.parseInt(version, 10) || 0;
}

function noop(): void {}
