// The hello-world Nest app under test, one variant per child process (see run.mjs).
// Plain JavaScript: decorators are applied with Reflect.decorate, as tsc would emit them.
//   plain          Nest + Express, no tracing
//   interceptor    plain + a global no-op interceptor (what Nest's interceptor machinery costs by itself)
//   interceptor-als  interceptor + AsyncLocalStorage.run() per request in an Express middleware, as
//                  obs mounts its own: what following a request across `await` costs in Nest by itself
//   obs            + ObsModule.forRoot() (root observation with input/output) and one @Observe child span
//   obs-nocapture  same, with captureInput/captureOutput false
//   obs-noobserve  obs without the @Observe child span (what the request observation costs alone)
//   obs-noexport   obs with an exporter that drops the spans (export's share)
import 'reflect-metadata';
import { Body, Controller, Injectable, Module, Param, Post } from '@nestjs/common';
import { APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { dropAll } from '../lib/drop-exporter.mjs';
import { injectChat } from '../lib/inject-chat.mjs';

const variant = process.argv[2] ?? 'plain';
const traced = variant.startsWith('obs');
const obsNest = traced ? await import('@obs/nest') : undefined;

function decorateMethod(cls, key, decorators) {
  const descriptor = Reflect.decorate(decorators, cls.prototype, key, Object.getOwnPropertyDescriptor(cls.prototype, key));
  Object.defineProperty(cls.prototype, key, descriptor);
}

class ChatService {
  async reply(id, message) {
    return `echo ${id}: ${message}`;
  }
}
if (obsNest && variant !== 'obs-noobserve') decorateMethod(ChatService, 'reply', [obsNest.Observe()]);
Reflect.decorate([Injectable()], ChatService);

class ChatController {
  constructor(chat) {
    this.chatService = chat;
  }
  async chat(id, body) {
    return { answer: await this.chatService.reply(id, body.message) };
  }
}
Reflect.defineMetadata('design:paramtypes', [ChatService], ChatController);
Param('id')(ChatController.prototype, 'chat', 0);
Body()(ChatController.prototype, 'chat', 1);
decorateMethod(ChatController, 'chat', [Post(':id')]);
Reflect.decorate([Controller('chat')], ChatController);

class NoopInterceptor {
  intercept(_ctx, next) {
    return next.handle();
  }
}
Reflect.decorate([Injectable()], NoopInterceptor);

/** ObsModule options of each obs variant. */
function variantOptions() {
  if (variant === 'obs-nocapture') return { captureInput: false, captureOutput: false };
  if (variant === 'obs-noexport') return { obs: { exporter: dropAll } };
  return {};
}

class AppModule {}
const imports = obsNest ? [obsNest.ObsModule.forRoot(variantOptions())] : [];
const providers = [ChatService];
if (variant.startsWith('interceptor')) providers.push({ provide: APP_INTERCEPTOR, useClass: NoopInterceptor });
Reflect.decorate([Module({ imports, controllers: [ChatController], providers })], AppModule);

const app = await NestFactory.create(AppModule, { logger: ['error'] });
if (variant === 'interceptor-als') {
  const { AsyncLocalStorage } = await import('node:async_hooks');
  const als = new AsyncLocalStorage();
  app
    .getHttpAdapter()
    .getInstance()
    .use((req, _res, next) => als.run({ req }, next));
}
await app.listen(0, '127.0.0.1');
const { port } = app.getHttpServer().address();
const obsService = obsNest ? app.get(obsNest.ObsService) : undefined;

// The parent asks for CPU time, injected requests and flushes over IPC.
process.on('message', async (msg) => {
  if (msg?.inject) {
    // Into Nest's Express instance, as the Express bench injects into its app.
    process.send({ injected: await injectChat(app.getHttpAdapter().getInstance(), msg.inject, 201) });
  } else if (msg === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send({ cpu: user + system });
  } else if (msg === 'flush') {
    await obsService?.flush();
    process.send({ flushed: true });
  } else if (msg === 'close') {
    await app.close();
    process.exit(0);
  }
});
process.send({ ready: true, port, variant });
