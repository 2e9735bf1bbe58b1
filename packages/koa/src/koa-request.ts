import { hasContent, NodeRequest } from '@obs/core/http';
import type { Context } from 'koa';

/**
 * One Koa request as core's Node.js layer observes it, once linked to its `ctx`: `identify`,
 * `captureInput` and `captureOutput` get the `ctx`, and the input is the parsed body a body parser
 * put on `ctx.request.body` (the response's body is `ctx.body` in Koa), else the query.
 */
export class KoaRequest extends NodeRequest<Context, Context> {
  override recordInput(): void {
    this.inputRecorded = true;
    const ctx = this.req as Partial<Context> | undefined;
    const body = (ctx?.request as { body?: unknown } | undefined)?.body;
    if (hasContent(body)) this.ro.setInput(body);
    else this.ro.setInput(undefined, ctx?.query);
  }
}
