// A Nest CLI-style CommonJS app: AppModule is the @obs/nest README's first example, verbatim.
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { getObsHandle } from '@obs/core';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const url = await app.getUrl();
  const res = await fetch(`${url.replace('[::1]', '127.0.0.1')}/chat/c-1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question: 'refunds' }),
  });
  const body: unknown = await res.json();
  await app.close();
  await getObsHandle()?.shutdown();
  console.log(`RESULT ${JSON.stringify({ traceId: res.headers.get('x-obs-trace-id'), body })}`);
}
main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
