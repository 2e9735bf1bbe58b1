// Express 5 alone: an app with one route answering one request over HTTP, then closed (the
// baseline of express.mjs).
import { answerOnce } from './express-app.mjs';

await answerOnce();
