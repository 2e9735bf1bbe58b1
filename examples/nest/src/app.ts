import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

/** The example app, not yet listening. */
export async function createApp(): Promise<INestApplication> {
  const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
  app.setGlobalPrefix('api');
  // SIGTERM/SIGINT close the app, and ObsModule flushes everything accepted on the way out.
  app.enableShutdownHooks();
  return app;
}
