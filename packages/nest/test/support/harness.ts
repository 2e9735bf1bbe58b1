import { get } from 'node:http';
import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { NestFactory } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { initObs, type ObsHandle } from '@obs/core';
import type { DecodedSpan, ObsServer } from '@obs/local-server';
import { setupObsServer, type ObsConnection } from '@obs/local-server/testing';

/** Tracing against the fixture's server (`setupObsServer({ init: initTestObs })`), short flush interval, no exit hooks. */
export const initTestObs = (c: ObsConnection): ObsHandle => initObs({ ...c, flushInterval: 0.05, flushOnExit: false });

export { setupObsServer };

/** A real Nest app (Express platform) built with `@nestjs/testing`, initialised and ready for supertest. */
export async function createApp(module: Type<unknown> | DynamicModule, setup?: (app: INestApplication) => void): Promise<INestApplication> {
  const ref = await Test.createTestingModule({ imports: [module] }).compile();
  const app = ref.createNestApplication({ logger: false });
  setup?.(app);
  await app.init();
  return app;
}

/**
 * The same, on the Fastify platform: initialised, and Fastify ready (so supertest can use
 * `app.getHttpServer()`).
 */
export async function createFastifyApp(
  module: Type<unknown> | DynamicModule,
  setup?: (app: NestFastifyApplication) => void,
): Promise<NestFastifyApplication> {
  const ref = await Test.createTestingModule({ imports: [module] }).compile();
  const app = ref.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
  setup?.(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

/** One HTTP platform the shared scenarios run on (`describe.each(platforms)`). */
export interface Platform {
  readonly name: 'express' | 'fastify';
  /** A tested app on this platform, initialised and ready for supertest (`createApp`, `createFastifyApp`). */
  createApp(module: Type<unknown> | DynamicModule, setup?: (app: INestApplication) => void): Promise<INestApplication>;
  /** An app made as a production one is, by `NestFactory.create`, on this platform (not yet listening). */
  createRealApp(module: Type<unknown>): Promise<INestApplication>;
}

export const platforms: readonly Platform[] = [
  {
    name: 'express',
    createApp,
    createRealApp: (module) => NestFactory.create(module, { logger: false }),
  },
  {
    name: 'fastify',
    createApp: createFastifyApp,
    createRealApp: (module) => NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter(), { logger: false }),
  },
];

/** The URL a listening app answers on, as an IPv4 address (Fastify reports `[::1]`). */
export async function urlOf(app: INestApplication): Promise<string> {
  return (await app.getUrl()).replace('[::1]', '127.0.0.1');
}

/** The root observation (no parent) of a trace. */
export function rootOf(server: ObsServer, traceId: string): DecodedSpan {
  const root = server.spansByTrace(traceId).find((s) => !s.parentSpanId);
  if (!root)
    throw new Error(
      `no root span for trace ${traceId}; spans: ${server
        .spans()
        .map((s) => s.name)
        .join(', ')}`,
    );
  return root;
}

/** The one span with this name (fails when there is none or several). */
export function only(server: ObsServer, name: string | RegExp): DecodedSpan {
  const spans = server.spansByName(name);
  if (spans.length !== 1) {
    throw new Error(
      `expected one span named ${String(name)}, got ${spans.length}: ${server
        .spans()
        .map((s) => s.name)
        .join(', ')}`,
    );
  }
  return spans[0]!;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** GET a JSON body on a fresh connection (no keep-alive, so a closing server need not wait for it). */
export function getJson(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(body));
        } catch (err) {
          reject(new Error(`${res.statusCode} ${body}: ${String(err)}`));
        }
      });
    }).on('error', reject);
  });
}
