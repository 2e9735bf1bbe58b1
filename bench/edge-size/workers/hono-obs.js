// The hello-world Hono Worker traced with @obs/hono (one line).
import { obs } from '@obs/hono';
import { Hono } from 'hono';

const app = new Hono();
app.use(obs());
app.get('/', (c) => c.text('hello'));
export default app;
