/** Type checks (compiled by `npm run typecheck`, never run): the wrapper keeps the handler's type, and the options see its event and result. */
import { wrapHandler } from '@obs/lambda';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Handler, SQSHandler, StreamifyHandler } from 'aws-lambda';

export const typed: Handler<APIGatewayProxyEventV2, APIGatewayProxyResultV2> = wrapHandler(
  async (event) => ({ statusCode: 200, body: event.rawPath }),
  {
    identify: (event) => ({ userId: event.headers['x-user'] }),
    captureOutput: (body, result) => ({ body, result }),
  },
);
export const sqs: SQSHandler = wrapHandler(async (event) => {
  for (const r of event.Records) void r.body;
});
const streaming: StreamifyHandler<APIGatewayProxyEventV2> = async (event, responseStream) => {
  responseStream.write(event.rawPath);
  responseStream.end();
};
export const streamed = awslambda.streamifyResponse(wrapHandler(streaming));
// @ts-expect-error the options see the handler's event type
wrapHandler(async (event: { a: number }) => event.a, { identify: (event) => ({ userId: event.b }) });
