import {
  Controller,
  Get,
  Injectable,
  Module,
  NotFoundException,
  SetMetadata,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
// biome-ignore lint/style/useImportType: Nest injects by the constructor's emitted design:paramtypes; a type-only import would emit Function there
import { Reflector } from '@nestjs/core';
import { startActiveObservation } from '@obs/core';
import type { DecodedSpan } from '@obs/local-server';
import request from 'supertest';
import { firstValueFrom, from, interval, lastValueFrom, map, take, timer, type Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObsModule, Observe } from '../src/index.js';
import { createApp, only, sleep, initTestObs, setupObsServer } from './support/harness.js';

@Injectable()
class Tools {
  @Observe()
  add(a: number, b: number): number {
    return a + b;
  }

  @Observe({ name: 'fetch-weather', asType: 'tool' })
  async weather(city: string): Promise<{ city: string; temp: number }> {
    await sleep(2);
    return { city, temp: 21 };
  }

  @Observe({ asType: 'retriever', captureInput: false, captureOutput: false })
  async search(secretQuery: string): Promise<string[]> {
    return [`doc for ${secretQuery}`];
  }

  @Observe()
  ticks(n: number): Observable<number> {
    return interval(1).pipe(take(n));
  }

  @Observe()
  broken(): Observable<never> {
    return timer(1).pipe(
      map(() => {
        throw new Error('tick failed');
      }),
    );
  }

  @Observe()
  letters(word: string): Observable<string> {
    return from(word.split(''));
  }

  @Observe()
  endless(): Observable<number> {
    return interval(1);
  }

  @Observe({ asType: 'generation', attributes: { model: 'fake-stream' } })
  async *tokens(prompt: string): AsyncGenerator<string> {
    for (const t of ['Hel', 'lo ', prompt]) {
      await sleep(1);
      yield t;
    }
  }

  @Observe()
  readable(parts: string[]): ReadableStream<string> {
    return new ReadableStream({
      start(controller) {
        for (const p of parts) controller.enqueue(p);
        controller.close();
      },
    });
  }

  @Observe()
  throwsNow(): never {
    throw new RangeError('bad input');
  }

  @Observe()
  async findUser(id: string): Promise<never> {
    throw new NotFoundException(`no user ${id}`);
  }

  @Observe()
  async nested(): Promise<string> {
    return startActiveObservation('inner-llm', async () => 'inner', { asType: 'generation' });
  }
}

const ROLES = 'roles';
const Roles = (...roles: string[]) => SetMetadata(ROLES, roles);

/** Reads the metadata @Observe must keep on the handler. */
@Injectable()
class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}
  canActivate(ctx: ExecutionContext): boolean {
    const roles = this.reflector.get<string[]>(ROLES, ctx.getHandler());
    return Array.isArray(roles) && roles.includes('admin');
  }
}

@Controller('admin')
@UseGuards(RolesGuard)
class AdminController {
  // @Observe above the others: it wraps a method that already carries their metadata.
  @Observe()
  @Get('report')
  @Roles('admin')
  report() {
    return { rows: 1 };
  }

  // @Observe below the others: they decorate the wrapper.
  @Get('audit')
  @Roles('admin')
  @Observe({ name: 'audit-handler' })
  audit() {
    return { audited: true };
  }
}

@Module({ imports: [ObsModule.forRoot({})], providers: [Tools, RolesGuard], controllers: [AdminController] })
class ObserveAppModule {}

const obs = setupObsServer({ init: initTestObs });

/** The one observation named `name`, once what obs holds was flushed. */
async function observed(name: string): Promise<DecodedSpan> {
  await obs.handle.flush();
  return only(obs.server, name);
}
let app: INestApplication;
let tools: Tools;

beforeAll(async () => {
  app = await createApp(ObserveAppModule);
  tools = app.get(Tools);
});
afterAll(async () => {
  await app.close();
});

describe('@Observe', () => {
  it('sync: one observation per call, named ClassName.method, with input and output', async () => {
    expect(tools.add(2, 3)).toBe(5);
    expect(tools.add(1, 1)).toBe(2);
    await obs.handle.flush();
    const spans = obs.server.spansByName('Tools.add');
    expect(spans.map((s) => [s.attributes['obs.observation.input'], s.attributes['obs.observation.output']])).toEqual([
      ['[2,3]', '5'],
      ['[1,1]', '2'],
    ]);
    expect(spans[0]!.attributes['obs.observation.type']).toBe('span');
  });

  it('Promise: ends when it settles, with name and asType', async () => {
    await expect(tools.weather('Oslo')).resolves.toEqual({ city: 'Oslo', temp: 21 });
    const span = await observed('fetch-weather');
    expect(span.attributes).toMatchObject({
      'obs.observation.type': 'tool',
      'obs.observation.input': 'Oslo',
      'obs.observation.output': '{"city":"Oslo","temp":21}',
    });
    expect(span.durationMs).toBeGreaterThanOrEqual(1);
  });

  it('captureInput/captureOutput false record neither', async () => {
    await tools.search('my secret');
    const span = await observed('Tools.search');
    expect(span.attributes['obs.observation.type']).toBe('retriever');
    expect(span.attributes['obs.observation.input']).toBeUndefined();
    expect(span.attributes['obs.observation.output']).toBeUndefined();
  });

  it('Observable: ends on complete with what it emitted, and emits unchanged', async () => {
    const values: number[] = [];
    await lastValueFrom(tools.ticks(3).pipe(map((v) => values.push(v))));
    expect(values).toEqual([0, 1, 2]);
    const span = await observed('Tools.ticks');
    expect(span.attributes['obs.observation.output']).toBe('[0,1,2]');
    expect(span.attributes['obs.observation.level']).toBeUndefined();
  });

  it('Observable: ends on error with level ERROR, and the error reaches the subscriber', async () => {
    await expect(lastValueFrom(tools.broken())).rejects.toThrow('tick failed');
    const span = await observed('Tools.broken');
    expect(span.attributes['obs.observation.level']).toBe('ERROR');
    expect(span.attributes['obs.observation.status_message']).toBe('tick failed');
  });

  it('Observable: ends on unsubscribe, marked cancelled', async () => {
    await expect(firstValueFrom(tools.endless())).resolves.toBe(0);
    const span = await observed('Tools.endless');
    expect(span.attributes['obs.observation.metadata.cancelled']).toBe(true);
    expect(span.attributes['obs.observation.output']).toBe('0');
  });

  it('async generator: ends when consumed, with the text it yielded', async () => {
    let text = '';
    for await (const t of tools.tokens('world')) text += t;
    expect(text).toBe('Hello world');
    const span = await observed('Tools.tokens');
    expect(span.attributes).toMatchObject({
      'obs.observation.type': 'generation',
      'obs.observation.model.name': 'fake-stream',
      'obs.observation.output': 'Hello world',
    });
  });

  it('async generator: a consumer that stops early ends it, marked cancelled', async () => {
    for await (const t of tools.tokens('x')) {
      expect(t).toBe('Hel');
      break;
    }
    expect((await observed('Tools.tokens')).attributes['obs.observation.metadata.cancelled']).toBe(true);
  });

  it('ReadableStream: ends when read to the end, with its text', async () => {
    const text = await new Response(tools.readable(['a', 'b', 'c']).pipeThrough(new TextEncoderStream())).text();
    expect(text).toBe('abc');
    expect((await observed('Tools.readable')).attributes['obs.observation.output']).toBe('abc');
  });

  it('a sync throw is recorded and rethrown unchanged', async () => {
    expect(() => tools.throwsNow()).toThrow(RangeError);
    expect((await observed('Tools.throwsNow')).attributes['obs.observation.level']).toBe('ERROR');
  });

  it('an HttpException below 500 is a WARNING with its message, not an error, and is rethrown', async () => {
    await expect(tools.findUser('u-0')).rejects.toBeInstanceOf(NotFoundException);
    const span = await observed('Tools.findUser');
    expect(span.attributes['obs.observation.level']).toBe('WARNING');
    expect(span.attributes['obs.observation.status_message']).toBe('no user u-0');
    expect(span.status.code).not.toBe(2);
  });

  it('is active while the method runs: observations it starts nest under it', async () => {
    await tools.nested();
    const outer = await observed('Tools.nested');
    expect(only(obs.server, 'inner-llm').parentSpanId).toBe(outer.spanId);
  });

  it("keeps other decorators' metadata on the method, whichever side of them it is", async () => {
    await request(app.getHttpServer()).get('/admin/report').expect(200, { rows: 1 });
    await request(app.getHttpServer()).get('/admin/audit').expect(200, { audited: true });
    const report = await observed('AdminController.report');
    expect(report.parentSpanId).toBe(only(obs.server, 'GET /admin/report').spanId);
    expect(only(obs.server, 'audit-handler').parentSpanId).toBe(only(obs.server, 'GET /admin/audit').spanId);
    expect(AdminController.prototype.report.name).toBe('report');
  });

  it('an Observable that completes synchronously, outside any request, is a root observation', async () => {
    await expect(lastValueFrom(tools.letters('abc'))).resolves.toBe('c');
    const span = await observed('Tools.letters');
    expect(span.parentSpanId).toBeUndefined();
    expect(span.attributes['obs.observation.output']).toBe('abc');
  });
});
