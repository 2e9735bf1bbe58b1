import { HttpException } from '@nestjs/common';

/**
 * Whether an exception is the client's doing (an `HttpException` below 500: 404, 401,
 * validation), which is a normal answer, not an error of the app.
 */
export function isClientError(err: unknown): boolean {
  const status =
    err instanceof HttpException
      ? err.getStatus()
      : // Another copy of @nestjs/common (a CommonJS app beside this ESM package) makes other classes.
        typeof (err as { getStatus?: unknown })?.getStatus === 'function'
        ? (err as { getStatus(): unknown }).getStatus()
        : undefined;
  return typeof status === 'number' && status < 500;
}
