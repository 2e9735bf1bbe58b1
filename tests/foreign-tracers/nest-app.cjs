// The Nest 11 app of the foreign-tracer scenarios (run after a setup file was `--require`d), on the
// platform NEST_PLATFORM names (`express`, default, or `fastify`): ObsModule.forRoot(), and a
// controller whose handler runs an `@Observe()` service method doing the shared LLM work. Plain
// CommonJS, so the decorators are applied by calling them, as TypeScript's emit does.
require('./one-nest.cjs');
require('reflect-metadata');
const { Body, Controller, Inject, Injectable, Module, Post } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { getObsHandle } = require('@obs/core');
const { ObsModule, Observe } = require('@obs/nest');
const { answerQuestion, obsInitOptions, requestAndReport } = require('./chat-work.cjs');

/** `@decorator` on a method: what TypeScript's `__decorate` does. */
function decorateMethod(proto, key, ...decorators) {
  Object.defineProperty(proto, key, Reflect.decorate(decorators, proto, key, Object.getOwnPropertyDescriptor(proto, key)));
}

class ChatService {
  answer(question) {
    return answerQuestion(question);
  }
}
decorateMethod(ChatService.prototype, 'answer', Observe({ name: 'answer' }));
Injectable()(ChatService);

class ChatController {
  constructor(chatService) {
    this.chatService = chatService;
  }
  async chat(body) {
    return { answer: await this.chatService.answer(body.question) };
  }
}
Body()(ChatController.prototype, 'chat', 0);
decorateMethod(ChatController.prototype, 'chat', Post());
Inject(ChatService)(ChatController, undefined, 0);
Controller('chat')(ChatController);

class AppModule {}
Module({
  imports: [ObsModule.forRoot({ obs: obsInitOptions(), identify: () => ({ userId: 'user-1', tags: ['api'] }) })],
  controllers: [ChatController],
  providers: [ChatService],
})(AppModule);

async function main() {
  const adapter = process.env.NEST_PLATFORM === 'fastify' ? new (require('@nestjs/platform-fastify').FastifyAdapter)() : undefined;
  const app = await NestFactory.create(AppModule, ...(adapter ? [adapter] : []), { logger: ['error'] });
  await app.listen(0, '127.0.0.1');
  const obs = getObsHandle();
  // app.close() flushes obs and shuts it down (ObsModule initialised it).
  await requestAndReport(
    app.getHttpServer().address().port,
    () => obs.mode,
    () => app.close(),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
