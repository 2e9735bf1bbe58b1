// Invokes the example function twice, as Lambda's Node.js runtime would (an event and a context
// whose clock says 3 s are left): an HTTP API request and an SQS batch. Each invocation's spans are
// on the obs server before the handler's promise settles; the process then exits at once, with no
// flush, as a frozen sandbox never runs again. Reads OBS_BASE_URL, OBS_PUBLIC_KEY and OBS_SECRET_KEY.
import { handler } from './src/handler.js';

const context = (id) => {
  const deadline = Date.now() + 3000;
  return { awsRequestId: id, functionName: 'chat-fn', functionVersion: '$LATEST', getRemainingTimeInMillis: () => deadline - Date.now() };
};

// 1. POST /chat/{id} through an HTTP API, signed in as alice.
const started = performance.now();
const res = await handler(
  {
    version: '2.0',
    routeKey: 'POST /chat/{id}',
    rawPath: '/chat/c-1',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', 'x-session-id': 'demo-session-lambda' },
    requestContext: {
      domainName: 'api.example.com',
      http: { method: 'POST', path: '/chat/c-1' },
      authorizer: { jwt: { claims: { sub: 'alice' }, scopes: [] } },
      requestId: 'gw-1',
      routeKey: 'POST /chat/{id}',
    },
    body: JSON.stringify({ question: 'Why do traces go missing on Lambda?' }),
    isBase64Encoded: false,
  },
  context('req-http-1'),
);
const ms = (performance.now() - started).toFixed(0);
console.log(`POST /chat/{id} -> ${res.statusCode} trace ${res.headers['x-obs-trace-id']} (${ms} ms)`, JSON.parse(res.body));

// 2. An SQS batch of two questions: one child per message.
const queue = 'arn:aws:sqs:eu-west-1:123456789012:questions';
const batch = await handler(
  {
    Records: ['What is a span?', 'What is a generation?'].map((question, i) => ({
      messageId: `m-${i + 1}`,
      body: JSON.stringify({ question }),
      attributes: { ApproximateReceiveCount: '1' },
      eventSource: 'aws:sqs',
      eventSourceARN: queue,
    })),
  },
  context('req-sqs-1'),
);
console.log('sqs questions ->', batch);
console.log('examples/lambda: done (no flush: each invocation delivered its spans before it returned)');
process.exit(0);
