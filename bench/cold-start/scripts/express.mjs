// @obs/express: the app of express-plain.mjs with obsMiddleware() in front, which starts obs with
// the defaults on its first request; that request's observation leaves with obs's flush at exit.
import { obsMiddleware } from '@obs/express';
import { answerOnce } from './express-app.mjs';

await answerOnce([obsMiddleware()]);
