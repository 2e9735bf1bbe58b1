// A Lambda handler as a new user writes it, with the packed tarballs installed, invoked once as the
// runtime would with an HTTP API event. The process then exits at once (no flush, no exit hook), as
// a frozen sandbox would never run again: the trace is on the server only if the invocation delivered it.
import { startActiveObservation } from '@obs/core';
import { wrapHandler } from '@obs/lambda';

export const handler = wrapHandler(
  async (event) => {
    const answer = await startActiveObservation('answer', async (span) => {
      span.update({ input: JSON.parse(event.body), output: 'lambda answer' });
      return 'lambda answer';
    });
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answer }) };
  },
  { identify: (event) => ({ userId: event.headers['x-user'] ?? 'anonymous' }) },
);

const event = {
  version: '2.0',
  routeKey: 'POST /chat/{id}',
  rawPath: '/chat/1',
  rawQueryString: '',
  headers: { 'content-type': 'application/json', 'x-user': 'lambda-user' },
  requestContext: {
    domainName: 'api.example.com',
    http: { method: 'POST', path: '/chat/1' },
    requestId: 'gw-1',
    routeKey: 'POST /chat/{id}',
  },
  body: JSON.stringify({ question: 'hi' }),
  isBase64Encoded: false,
};
const deadline = Date.now() + 3000;
const context = { awsRequestId: 'req-1', functionName: 'consumer-fn', getRemainingTimeInMillis: () => deadline - Date.now() };
const result = await handler(event, context);
console.log(`RESULT ${JSON.stringify({ traceId: result.headers['x-obs-trace-id'], body: JSON.parse(result.body) })}`);
process.exit(0);
